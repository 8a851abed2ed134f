#!/usr/bin/env bash
# On a machine with nvcc and cuobjdump (the GPU machine; the CI machine has no cuobjdump): compiles
# sm_90a sources to cubins and prints, per kernel, a one-line timeline of its wgmma batches, waits,
# conversions, stores and barriers (scripts/sass_timeline.py), to see where ptxas placed its waits.
#   scripts/sass-sm90.sh [source.cu ...]    (default: test/kernel/ptxas/*.cu, the library's bf16
#                                            tiles and the split-tail kernels)
#   MATCH=<substring> scripts/sass-sm90.sh   only kernels whose demangled name contains it
# The cubins, the full SASS and the timelines go to $OUT (default ./gpu-out).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
command -v cuobjdump >/dev/null || { echo "sass-sm90.sh: cuobjdump not found"; exit 1; }
sources=("$@")
((${#sources[@]})) || sources=(test/kernel/ptxas/*.cu)
status=0
for src in "${sources[@]}"; do
  stem=$(basename "${src%.*}")
  if ! nvcc -std=c++20 --expt-relaxed-constexpr -O3 -gencode arch=compute_90a,code=sm_90a -I include -I test \
      -cubin -o "$OUT/$stem.cubin" "$src" >"$OUT/$stem.build.log" 2>&1; then
    echo "== $src did not compile:"; tail -n 20 "$OUT/$stem.build.log"; status=1; continue
  fi
  cuobjdump --dump-sass "$OUT/$stem.cubin" >"$OUT/$stem.sass"
  echo "== $src"
  python3 scripts/sass_timeline.py --match "${MATCH:-}" <"$OUT/$stem.sass" | tee "$OUT/$stem.timeline"
done
exit $status
