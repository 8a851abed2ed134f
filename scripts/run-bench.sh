#!/usr/bin/env bash
# The `bench` test of `cmake --workflow --preset bench`.
#   run-bench.sh <bench-binary-dir> <examples-binary-dir>
# With a CUDA GPU: runs every bench binary built for it (a name containing "sm90" needs compute
# capability 9.0 exactly, since sm_90a code runs nowhere else; any other needs 8.0 or newer).
# Without one (or with none of its binaries built): says so and runs the host layout tour.
# Extra arguments for the bench binaries can be given in STRATA_BENCH_ARGS.
set -uo pipefail

bench_dir=${1:?usage: run-bench.sh <bench-dir> <examples-dir>}
examples_dir=${2:?usage: run-bench.sh <bench-dir> <examples-dir>}

run_tour() {
  local tour="$examples_dir/layout_tour"
  if [[ -x "$tour" ]]; then
    echo "== $tour"
    "$tour"
  else
    echo "the host layout tour ($tour) is not built yet: nothing to run"
  fi
}

gpu=""
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  gpu=$(nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader 2>/dev/null | head -n 1)
fi
if [[ -z "$gpu" ]]; then
  echo "no CUDA GPU present: running the host layout tour instead"
  run_tour
  exit
fi

gpu_name=${gpu%,*}
cc=${gpu##*, }              # e.g. "9.0"
cc_num=$(( ${cc%%.*} * 10 + ${cc##*.} ))
echo "CUDA GPU: $gpu_name (compute capability $cc)"

status=0
ran=0
for bin in "$bench_dir"/*; do
  [[ -f "$bin" && -x "$bin" ]] || continue
  name=$(basename "$bin")
  if [[ "$name" == *sm90* ]]; then
    (( cc_num == 90 )) || { echo "skipping $name: it is sm_90a code, this GPU is $cc"; continue; }
  else
    (( cc_num >= 80 )) || { echo "skipping $name: it needs compute capability 8.0 or newer"; continue; }
  fi
  echo "== $bin ${STRATA_BENCH_ARGS:-}"
  # shellcheck disable=SC2086  # STRATA_BENCH_ARGS is a list of flags
  "$bin" ${STRATA_BENCH_ARGS:-} || status=$?
  ran=$((ran + 1))
done

if (( ran == 0 )); then
  echo "no bench binary for this GPU is built in $bench_dir: running the host layout tour instead"
  run_tour
  exit
fi
exit "$status"
