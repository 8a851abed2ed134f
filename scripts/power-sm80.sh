#!/usr/bin/env bash
# On the GPU machine: builds bench/tools/sm80_power.cu and runs it: energy, SM clock and power-cap
# state of sustained workloads, from the register-only mma.sync loop up to the full GEMM and cuBLAS.
#   scripts/power-sm80.sh [seconds per workload = 4] [m,n,k ...]   (default 8192,8192,8192)
# The binary and its build log go to $OUT (default ./gpu-out).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
nvcc -std=c++20 --expt-relaxed-constexpr -gencode arch=compute_80,code=sm_90 -O3 -I include -Xptxas -v \
  bench/tools/sm80_power.cu -o "$OUT/sm80_power" -lcublas -ldl >"$OUT/power-build.log" 2>&1 ||
  { grep -m5 -A3 error "$OUT/power-build.log"; exit 1; }
"$OUT/sm80_power" "$@"
