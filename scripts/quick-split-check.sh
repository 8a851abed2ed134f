#!/usr/bin/env bash
# On the GPU machine, when there is no time for gpu-check's full build: compiles the Hopper split-K
# tests (test/kernel/sm90_gemm_split_test.cu, sm_90a only) and the all-architecture bench (sm_90a
# only) with nvcc alone, runs the tests plainly and under memcheck and synccheck, then the bench
# rows the filter names (default: the decode rows of M = 128). Logs to $OUT (default ./gpu-out).
#   scripts/quick-split-check.sh [bench filter regex]   (default decode/m128_)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then export PATH="/usr/local/cuda/bin:$PATH"; fi
flags=(-std=c++20 --expt-relaxed-constexpr -O3 -gencode arch=compute_90a,code=sm_90a -Iinclude -Itest -Itest/kernel)
nvcc "${flags[@]}" test/kernel/sm90_gemm_split_test.cu -o "$OUT/split_test" -lgtest_main -lgtest -lpthread -lcuda \
  >"$OUT/split-build.log" 2>&1 &
nvcc "${flags[@]}" bench/auto_gemm_bench_allarch.cu -o "$OUT/auto_bench" -lbenchmark -lpthread -lcublas -lcuda \
  >"$OUT/bench-build.log" 2>&1 &
wait
rc=0
"$OUT/split_test" >"$OUT/split.log" 2>&1 || rc=1
tail -3 "$OUT/split.log"
for tool in memcheck synccheck; do
  compute-sanitizer --tool "$tool" --error-exitcode 9 "$OUT/split_test" --gtest_filter='-*Refusals*' \
    >"$OUT/split-$tool.log" 2>&1 || rc=1
  echo "$tool: $(grep -m1 -E 'ERROR SUMMARY|error' "$OUT/split-$tool.log")"
done
"$OUT/auto_bench" --benchmark_filter="${1:-decode/m128_}" --benchmark_counters_tabular=true >"$OUT/bench.log" 2>&1 || rc=1
cut -c1-340 "$OUT/bench.log" | grep -E "^bf16/|Benchmark"
exit $rc
