#!/usr/bin/env bash
# On the GPU machine: builds bench/tools/sm80_power.cu and runs it: energy, SM clock and power-cap
# state of sustained workloads, from the register-only mma.sync loop up to the full GEMM and cuBLAS.
#   scripts/power-sm80.sh [seconds per workload = 4] [m,n,k ...]   (default 8192,8192,8192)
# The binary and its build log go to $OUT (default ./gpu-out).
exec bash "$(dirname "${BASH_SOURCE[0]}")/study-tool.sh" sm80_power "$@"
