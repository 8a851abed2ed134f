#!/usr/bin/env bash
# On the GPU machine: builds the study tool bench/tools/sm80_<tool>.cu (Ampere path, compute_80 ->
# sm_90) and runs it with the remaining arguments. scripts/trace-sm80.sh and scripts/power-sm80.sh
# call it; each tool's header says what it prints.
#   scripts/sm80-tool.sh <tool> [args ...]
# The binary and its build log (with -Xptxas -v) go to $OUT (default ./gpu-out).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
tool=${1:?usage: sm80-tool.sh <tool> [args ...]}
shift
[[ -f "bench/tools/sm80_$tool.cu" ]] || { echo "no bench/tools/sm80_$tool.cu" >&2; exit 2; }
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
nvcc -std=c++20 --expt-relaxed-constexpr -gencode arch=compute_80,code=sm_90 -O3 -I include -Xptxas -v \
  "bench/tools/sm80_$tool.cu" -o "$OUT/sm80_$tool" -lcublas -ldl >"$OUT/$tool-build.log" 2>&1 ||
  { grep -m5 -A3 error "$OUT/$tool-build.log"; exit 1; }
"$OUT/sm80_$tool" "$@"
