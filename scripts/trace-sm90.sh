#!/usr/bin/env bash
# On the GPU machine: builds bench/tools/sm90_trace.cu (the Hopper kernel's timeline hook switched
# on, sm_90a) and runs it: per shape and work split, the event-timed median and each consumer
# warpgroup's phases in cycles per work unit.
#   scripts/trace-sm90.sh [m,n,k ...]     (default: 4096^3, 16384 x 14336 x 4096, 8192^3, 128 x 8192^2)
#   SPLIT_TAIL=N scripts/trace-sm90.sh    the large class's tile with a split tail of N K tiles
# The binary and its build log (with -Xptxas -v) go to $OUT (default ./gpu-out).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
nvcc -std=c++20 --expt-relaxed-constexpr -gencode arch=compute_90a,code=sm_90a -O3 -I include -Xptxas -v \
  -DSTRATA_TRACE_SPLIT_TAIL="${SPLIT_TAIL:-0}" \
  bench/tools/sm90_trace.cu -o "$OUT/sm90_trace" -lcublas -lcuda >"$OUT/trace-sm90-build.log" 2>&1 ||
  { grep -m5 -A3 error "$OUT/trace-sm90-build.log"; exit 1; }
"$OUT/sm90_trace" "$@"
