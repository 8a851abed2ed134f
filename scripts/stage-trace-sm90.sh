#!/usr/bin/env bash
# On the GPU machine: builds bench/tools/sm90_stage_trace.cu (the mainloop's per-K-tile stage hook
# switched on, sm_90a) and runs it: per shape, the 64 x 64 whole-tile kernel unclustered and in a
# 2 x 1 cluster and the 64 x 128 one unclustered, with the producer's empty waits, the loads'
# latency, the consumers' full waits, drains and releases and the K-tile period in cycles.
#   NVCC_DEFINES=-DSTAGE_TRACE_EVENTS=<mask>    which events are stamped (the tool's header)
#   scripts/stage-trace-sm90.sh [m,n,k ...]     (default: 128 x 4096 x 4096, 128 x 4096 x 14336)
# The binary and its build log (with -Xptxas -v) go to $OUT (default ./gpu-out).
exec bash "$(dirname "${BASH_SOURCE[0]}")/study-tool.sh" sm90_stage_trace "$@"
