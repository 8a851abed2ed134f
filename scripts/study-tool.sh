#!/usr/bin/env bash
# On the GPU machine: builds the study tool bench/tools/<stem>.cu with nvcc alone (sm_90a for a
# stem starting with sm90, else the Ampere path: compute_80 -> sm_90) and runs it with the remaining
# arguments. scripts/trace-sm80.sh, power-sm80.sh, trace-sm90.sh and probe-sm90.sh call it; each
# tool's header says what it prints.
#   scripts/study-tool.sh <stem> [args ...]     e.g. sm90_tile_probe 128,4096,4096
#   NVCC_DEFINES="-DNAME=value ..."             more nvcc flags (trace-sm90.sh's SPLIT_TAIL)
#   STUDY_INCLUDE=<dir>   the library's headers from <dir> instead of include/: a change against
#                         its base in one device call, e.g. here `mkdir -p build/base && git archive
#                         main include | tar -x -C build/base`, then run with carry build/base and
#                         STUDY_INCLUDE=build/base/include OUT=$OUT/base (the binary is named alike)
#   STUDY_BUILD_ONLY=1    build, do not run (several trees' builds in parallel, then each run alone)
# The binary and its build log (with -Xptxas -v) go to $OUT (default ./gpu-out).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
stem=${1:?usage: study-tool.sh <stem> [args ...]}
shift
[[ -f "bench/tools/$stem.cu" ]] || { echo "no bench/tools/$stem.cu" >&2; exit 2; }
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
if [[ $stem == sm90* ]]; then
  target=(-gencode arch=compute_90a,code=sm_90a) libs=(-lcublas -lcuda)
else
  target=(-gencode arch=compute_80,code=sm_90) libs=(-lcublas -ldl)  # sm80_power opens NVML with dlopen
fi
read -r -a defines <<<"${NVCC_DEFINES:-}"
nvcc -std=c++20 --expt-relaxed-constexpr "${target[@]}" -O3 -I "${STUDY_INCLUDE:-include}" -Xptxas -v "${defines[@]}" \
  "bench/tools/$stem.cu" -o "$OUT/$stem" "${libs[@]}" >"$OUT/$stem-build.log" 2>&1 ||
  { grep -m5 -A3 error "$OUT/$stem-build.log"; exit 1; }
[[ -n "${STUDY_BUILD_ONLY:-}" ]] && exit 0
"$OUT/$stem" "$@"
