#!/usr/bin/env bash
# On the GPU machine: builds bench/tools/sm80_trace.cu (the kernel's timeline hook switched on) and
# runs it: per shape and work split, the event-timed median and each CTA phase's mean duration.
#   scripts/trace-sm80.sh [m,n,k ...]     (default: m128 x n14336 x k4096, m128 x n8192 x k8192, 2048^3)
# The binary and its build log go to $OUT (default ./gpu-out).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
nvcc -std=c++20 --expt-relaxed-constexpr -gencode arch=compute_80,code=sm_90 -O3 -I include \
  bench/tools/sm80_trace.cu -o "$OUT/sm80_trace" -lcublas >"$OUT/trace-build.log" 2>&1 ||
  { grep -m5 -A3 error "$OUT/trace-build.log"; exit 1; }
"$OUT/sm80_trace" "$@"
