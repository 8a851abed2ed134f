#!/usr/bin/env bash
# On the GPU machine: builds bench/tools/sm90_tile_probe.cu (sm_90a, about 30 s) and runs it:
# candidate decode-side tiles against Sm90AutoGemm's choice and cuBLAS, one launch and streamed,
# every output checked against cuBLAS first.
#   scripts/probe-sm90.sh [m,n,k ...]      (default: m 64 and 128 × the four LLM weight shapes)
# The binary and its build log (with -Xptxas -v) go to $OUT (default ./gpu-out). Against another
# revision's headers in the same call: scripts/ab-probe-sm90.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/study-tool.sh" sm90_tile_probe "$@"
