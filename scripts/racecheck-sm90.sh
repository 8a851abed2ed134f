#!/usr/bin/env bash
# On the GPU machine: does racecheck's slow tail on the Hopper kernels ever fail to complete, and
# which wait does it stall? Builds one GPU test unit with a wait bound that never expires (so only
# the per-run timeout ends a run; the kernels' code is otherwise the library's) and, with
# SLOW_WAIT_NS > 0, STRATA_MBARRIER_SLOW_WAIT_NS: every wait polling past it prints its barrier,
# parity, block and thread when it completes. That diagnosis changes the kernels (each wait becomes a
# call: ptxas serializes their wgmma and ignores setmaxnreg), so it may change the tail it looks
# for; run without it first. Then runs the filter under racecheck RUNS times and prints, per run,
# its wall time, whether it finished, its hazards and its slow waits.
#   scripts/racecheck-sm90.sh
#   UNIT=test/kernel/sm90_gemm_test.cu FILTER=Sm90Gemm.F16InF32Out_128x128 RUNS=10 \
#   RUN_TIMEOUT=300 SLOW_WAIT_NS=0 scripts/racecheck-sm90.sh      (the defaults; 1000000000: 1 s)
# Logs (one per run) and the binary go to $OUT (default ./gpu-out).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-./gpu-out}
UNIT=${UNIT:-test/kernel/sm90_gemm_test.cu}
FILTER=${FILTER:-Sm90Gemm.F16InF32Out_128x128}
RUNS=${RUNS:-10}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
SLOW_WAIT_NS=${SLOW_WAIT_NS:-0}
mkdir -p "$OUT"
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)

defs=(-DSTRATA_MBARRIER_TIMEOUT_NS=1000000000000000ull)  # 11.6 days: never, for a run
((SLOW_WAIT_NS > 0)) && defs+=("-DSTRATA_MBARRIER_SLOW_WAIT_NS=${SLOW_WAIT_NS}ull")
bin="$OUT/racecheck_unit"
echo "== building $UNIT (${defs[*]})"
nvcc -std=c++20 --expt-relaxed-constexpr -O3 -gencode arch=compute_90a,code=sm_90a -I include -I test \
  -I "$(dirname "$UNIT")" "${defs[@]}" "$UNIT" -o "$bin" -lgtest_main -lgtest -lpthread -lcuda \
  >"$OUT/racecheck-build.log" 2>&1 || { grep -m5 -A3 error "$OUT/racecheck-build.log"; exit 1; }

printf '%-4s %-10s %8s %8s %10s\n' run verdict seconds hazards slow_waits
for ((i = 1; i <= RUNS; ++i)); do
  log="$OUT/racecheck-run$i.log"
  start=$SECONDS
  timeout "$RUN_TIMEOUT" "$sanitizer" --tool racecheck --racecheck-report hazard --print-limit 20 \
    "$bin" --gtest_filter="$FILTER" >"$log" 2>&1
  rc=$?
  seconds=$((SECONDS - start))
  verdict=passed
  ((rc == 124)) && verdict="unfinished"
  ((rc != 0 && rc != 124)) && verdict="failed($rc)"
  hazards=$(sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazards.*/\1/p' "$log" | tail -n 1)
  slow=$(grep -c "strata: slow mbarrier wait" "$log")
  printf '%-4s %-10s %8s %8s %10s\n' "$i" "$verdict" "$seconds" "${hazards:--}" "$slow"
done

# The slow waits of all runs, grouped by barrier, parity and the waiting warp (thread / 32): which
# side of which ring stalled, and how long.
echo "== slow waits by barrier, parity and warp (count, longest wall ns)"
cat "$OUT"/racecheck-run*.log 2>/dev/null | sed -n \
  's/.*slow mbarrier wait: \([0-9]*\) ns counted, \([0-9]*\) ns of wall time: barrier at shared::cta address \(0x[0-9a-f]*\), phase of parity \([01]\); block ([0-9, ]*), thread (\([0-9]*\),.*/\3 \4 \5 \2/p' |
  awk '{ key = "barrier " $1 ", parity " $2 ", warp " int($3 / 32); n[key]++; if ($4 > m[key]) m[key] = $4 }
       END { for (k in n) printf "%-40s %6d %14d\n", k, n[k], m[k] }' | sort
