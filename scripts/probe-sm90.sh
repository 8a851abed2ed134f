#!/usr/bin/env bash
# On the GPU machine: builds bench/tools/sm90_tile_probe.cu (sm_90a, nvcc alone, about 30 s) and
# runs it: candidate decode-side tiles against Sm90AutoGemm's choice and cuBLAS, one launch and
# streamed, every output checked against cuBLAS first.
#   scripts/probe-sm90.sh [m,n,k ...]      (default: m 64 and 128 × the four LLM weight shapes)
# The binary, its build log and the output go to $OUT (default ./gpu-out).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
nvcc -std=c++20 --expt-relaxed-constexpr -gencode arch=compute_90a,code=sm_90a -O3 -I include -Xptxas -v \
  bench/tools/sm90_tile_probe.cu -o "$OUT/sm90_tile_probe" -lcublas -lcuda >"$OUT/probe-sm90-build.log" 2>&1 ||
  { grep -m5 -A3 error "$OUT/probe-sm90-build.log"; exit 1; }
"$OUT/sm90_tile_probe" "$@" | tee "$OUT/probe-sm90.log"
