#!/usr/bin/env bash
# On the GPU machine: builds bench/tools/sm90_trace.cu (the Hopper kernel's timeline hook switched
# on, sm_90a) and runs it: per shape and work split, the event-timed median and each consumer
# warpgroup's phases in cycles per work unit.
#   scripts/trace-sm90.sh [m,n,k ...]     (default: 4096^3, 16384 x 14336 x 4096, 8192^3, 128 x 8192^2)
#   SPLIT_TAIL=N scripts/trace-sm90.sh    the large class's tile with a split tail of N K tiles
# The binary and its build log (with -Xptxas -v) go to $OUT (default ./gpu-out).
NVCC_DEFINES="-DSTRATA_TRACE_SPLIT_TAIL=${SPLIT_TAIL:-0}" \
  exec bash "$(dirname "${BASH_SOURCE[0]}")/study-tool.sh" sm90_trace "$@"
