#!/usr/bin/env bash
# On the GPU machine: builds bench/tools/sm80_trace.cu (the kernel's timeline hook switched on) and
# runs it: per shape and work split, the event-timed median and each CTA phase's mean duration.
#   scripts/trace-sm80.sh [m,n,k ...]     (default: m128 x n14336 x k4096, m128 x n8192 x k8192, 2048^3)
# The binary and its build log go to $OUT (default ./gpu-out).
exec bash "$(dirname "${BASH_SOURCE[0]}")/study-tool.sh" sm80_trace "$@"
