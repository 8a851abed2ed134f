#!/usr/bin/env bash
# On the GPU machine (ninja, nvcc, one GPU): configure build/gpu, build everything, run every
# test (GPU ones included), then run each bench binary briefly. Logs go to $OUT (default
# ./gpu-out); a summary table closes the run. A failed stage does not stop the later ones, but
# the script exits non-zero if any failed.
#   OUT=<dir>            where logs and bench JSON go
#   BENCH_FLAGS="..."    flags for every bench binary (default none: each sm80_gemm case times
#                        itself, median of 30 runs; e.g. --benchmark_filter=bf16 to narrow it)
#   BENCH_TIMEOUT=<s>    per bench binary (default 600)
#   STAGES="..."         which stages run, of: build test repeat sanitize stress bench (default
#                        all; the build directory is reused, so a later call can run the rest)
#   BUILD_TARGETS="..."  build only these targets (e.g. "strata_kernel_tests auto_gemm_bench_allarch"
#                        for a short call of sanitize and bench; the test stage needs everything)
#   REPEAT=<n>           runs of the split-K / Stream-K / sanitize kernel tests in `repeat` (5)
#   STRESS_CASES=<n>     problems of the `stress` stage's long run (default 10000)
#   SANITIZE_FILTER=...  the gtest filter the sanitizers run over (default: every path of every
#                        tile class, Sm80GemmSanitize.*, and the Hopper atom tests)
#   SANITIZE_TOOLS="..." which compute-sanitizer tools run (default: memcheck racecheck synccheck
#                        initcheck; racecheck takes ~3/4 of the stage, so a short call can skip it)
#
# Stages: build (configure + build everything; build-slowest.log lists its 15 slowest steps); test
# (every ctest test but the bench ones and, where the stress stage runs, the stress test; those
# that need no GPU in parallel); repeat (the kernel tests whose paths hand partial tiles between
# CTAs, run REPEAT times: intermittent failures); sanitize (compute-sanitizer memcheck, racecheck,
# synccheck and initcheck over SANITIZE_FILTER; any reported hazard or error fails the stage,
# but racecheck's no-hazard traps get one rerun of each failed test alone, see below);
# stress (the random-shape stress test at STRESS_CASES problems); bench.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

OUT=${OUT:-./gpu-out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
BUILD=build/gpu
BENCH_FLAGS=${BENCH_FLAGS:-}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-600}
STAGES=${STAGES:-build test repeat sanitize stress bench}
REPEAT=${REPEAT:-5}
STRESS_CASES=${STRESS_CASES:-10000}
SANITIZE_FILTER=${SANITIZE_FILTER:-Sm80GemmSanitize.*:ArchSm90*:Tma*:Stmatrix*:WgmmaSm90*:Sm90Gemm.*:Sm90GemmSplit.RerunWithoutInitializing:Sm90GemmSplit.LastSplitWithoutAndWithItsLead:Sm90TmaEpilogue*:Sm90GemmPdl.Waits*:Sm90GemmPdl.Independent*:Sm90GemmDecode.*:Sm90GemmHuge.Bf16:Sm90GemmPairs.WhichPlansPair:Sm90GemmPairs.RerunWithoutInitializing:Sm90GemmSplitTail.*:Sm90GemmWave.*}
wants() { [[ " $STAGES " == *" $1 "* ]]; }

if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

rows=()      # "stage|status|seconds|log"
failed=0

# stage <name> <log> <command...>: runs the command with its output in <log>, records a row.
stage() {
  local name=$1 log=$2
  shift 2
  echo "== $name"
  local start=$SECONDS
  "$@" >"$log" 2>&1
  local rc=$?
  local seconds=$((SECONDS - start))
  if ((rc == 0)); then
    rows+=("$name|ok|$seconds|$log")
  else
    rows+=("$name|FAILED ($rc)|$seconds|$log")
    failed=1
    echo "-- $name failed ($rc); last lines of $log:"
    tail -n 40 "$log"
  fi
  return $rc
}

{
  date -u
  git rev-parse HEAD 2>/dev/null
  nvidia-smi 2>&1
  nvcc --version 2>&1
  cmake --version | head -n 1
  ninja --version
} >"$OUT/machine.log" 2>&1

if wants build; then
  stage configure "$OUT/configure.log" \
    cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTRATA_ENABLE_CUDA=ON \
      -DSTRATA_BUILD_TESTS=ON -DSTRATA_BUILD_EXAMPLES=ON -DSTRATA_BUILD_BENCH=ON
  # -k 0: one broken translation unit does not hide how the others fare.
  read -r -a targets <<<"${BUILD_TARGETS:-}"
  ((${#targets[@]} > 0)) && targets=(--target "${targets[@]}")
  stage build "$OUT/build.log" cmake --build "$BUILD" "${targets[@]}" -- -k 0
  # The slowest steps (ninja's log: start and end in ms, then the output), to see what bounds the
  # build's wall time on this machine.
  if [[ -f "$BUILD/.ninja_log" ]]; then
    awk -F'\t' 'NR > 1 { printf "%7.1f s  %s\n", ($2 - $1) / 1000, $4 }' "$BUILD/.ninja_log" |
      sort -rn | head -n 15 >"$OUT/build-slowest.log"
  fi
fi

tests_line=""
skipped=0
if wants test; then
  # The tests that need no GPU (host layout tests, compile-fail tests, examples and package checks
  # on the host) run in parallel; the GPU ones one at a time, as each assumes the GPU to itself
  # (timings, the PDL tests' overlap controls). The bench binaries run below, with short settings,
  # so the `bench` test is left out; so is the stress test when the `stress` stage runs it larger.
  host_labels='^(layout|compile_fail|host|ptxas)$'
  skip_labels=bench
  wants stress && skip_labels='bench|stress'
  stage "ctest (no GPU, parallel)" "$OUT/ctest-host.log" \
    ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)" --label-regex "$host_labels" \
      --output-junit "$OUT/ctest-host-junit.xml"
  stage ctest "$OUT/ctest.log" \
    ctest --test-dir "$BUILD" --output-on-failure --label-exclude "^(layout|compile_fail|host|ptxas|$skip_labels)$" \
      --output-junit "$OUT/ctest-junit.xml"
  tests_line="no GPU: $(grep -E "tests passed|tests failed" "$OUT/ctest-host.log" | tail -n 1); GPU: $(grep -E "tests passed|tests failed" "$OUT/ctest.log" | tail -n 1)"
  skipped=$(cat "$OUT/ctest-host.log" "$OUT/ctest.log" | grep -c "\*\*\*Skipped")
fi

if wants repeat; then
  stage "repeat x$REPEAT" "$OUT/repeat.log" \
    ctest --test-dir "$BUILD" --output-on-failure --repeat "until-fail:$REPEAT" \
      -R 'Sm80GemmFeatures|Sm80GemmSanitize|Sm80GemmUnaligned|Sm80AutoGemm|Sm90GemmPairs|Sm90GemmSplitTail|Sm90GemmSplit\.LastSplit'
fi

# compute-sanitizer over the GPU tests named by SANITIZE_FILTER, in each test binary that has
# them. --error-exitcode makes any reported hazard or error fail the stage.
if wants sanitize; then
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  sanitize() {
    local tool=$1 status=0 bin ran=0
    for bin in "$BUILD"/test/strata_kernel_tests "$BUILD"/test/strata_atom_tests \
        "$BUILD"/test/strata_collective_tests; do
      [[ -x "$bin" ]] || continue
      # A binary with no test the filter names makes no CUDA call, which the sanitizer reports as
      # an error: skip it (a filter that names none anywhere fails below).
      local listed
      listed=$("$bin" --gtest_list_tests --gtest_filter="$SANITIZE_FILTER" 2>/dev/null)
      if ! grep -q '^  ' <<<"$listed"; then
        echo "--- $tool: $(basename "$bin") has no test matching $SANITIZE_FILTER: skipped"
        continue
      fi
      ran=$((ran + 1))
      echo "--- $tool: $(basename "$bin") --gtest_filter=$SANITIZE_FILTER"
      local extra=()
      [[ $tool == racecheck ]] && extra=(--racecheck-report hazard)
      local log
      log=$(mktemp)
      "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 --print-limit 20 \
        "$bin" --gtest_filter="$SANITIZE_FILTER" 2>&1 | tee "$log"
      if ((PIPESTATUS[0] != 0)); then
        # Racecheck's pace has a long, rare tail: a kernel it slows past the tests' 120 s wait
        # bound traps with no hazard, and every test after it fails on the dead context
        # (bench/RESULTS.md, twenty-second, twenty-third and thirty-first sessions). Then, and only
        # then, each failed test runs once more alone; a hazard, or a test failing twice, fails.
        if [[ $tool == racecheck ]] && grep -q "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)" "$log" &&
            ! grep -q "Failure$" <(grep -v "^unknown file: Failure$" "$log"); then
          local t
          for t in $(sed -n 's/^\[  FAILED  \] \([A-Za-z0-9_./]*\) (.*/\1/p' "$log"); do
            echo "--- racecheck: $t trapped or met a dead context with no hazard: once more, alone"
            "$sanitizer" --tool racecheck "${extra[@]}" --error-exitcode 99 --print-limit 20 \
              "$bin" --gtest_filter="$t" || status=1
          done
        else
          status=1
        fi
      fi
      rm -f "$log"
    done
    # No test binary (the build stage did not run here, or failed), or no test the filter names,
    # is a failure, not a pass.
    if ((ran == 0)); then
      echo "--- $tool: no test binary under $BUILD/test with a test matching $SANITIZE_FILTER: nothing was checked"
      return 1
    fi
    return $status
  }
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}; do
    stage "sanitize $tool" "$OUT/sanitize-$tool.log" sanitize "$tool"
  done
fi

if wants stress; then
  stress_bin=$(ls "$BUILD"/test/strata_stress_tests 2>/dev/null)
  if [[ -n "$stress_bin" ]]; then
    stage "stress x$STRESS_CASES" "$OUT/stress.log" env STRATA_STRESS_CASES="$STRESS_CASES" "$stress_bin"
    tail -n 15 "$OUT/stress.log"
  else
    rows+=("stress|FAILED (no strata_stress_tests)|0|-")
    failed=1
  fi
fi

if wants bench; then
  shopt -s nullglob
  for bin in "$BUILD"/bench/*; do
    [[ -f "$bin" && -x "$bin" ]] || continue
    name=$(basename "$bin")
    # shellcheck disable=SC2086  # BENCH_FLAGS is a list of flags
    stage "bench $name" "$OUT/bench-$name.log" \
      timeout "$BENCH_TIMEOUT" "$bin" $BENCH_FLAGS \
        --benchmark_out="$OUT/bench-$name.json" --benchmark_out_format=json
    cat "$OUT/bench-$name.log"
  done
fi

echo
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
echo "== summary (${gpu_name:-no GPU found})"
printf '%-28s %-14s %8s  %s\n' stage status seconds log
for row in "${rows[@]}"; do
  IFS='|' read -r name status seconds log <<<"$row"
  printf '%-28s %-14s %8s  %s\n' "$name" "$status" "$seconds" "$log"
done
[[ -n "$tests_line" ]] && echo "ctest: $tests_line ($skipped skipped)"
exit "$failed"
