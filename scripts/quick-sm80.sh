#!/usr/bin/env bash
# On the GPU machine: build only the kernel tests and the sm80 bench (build/gpu), run the kernel
# tests matching TESTS (a ctest regex, default all kernel tests), the bench cases matching FILTER
# (default bf16), and count local-memory instructions (spills) per kernel in the bench binary's
# SASS. Logs in $OUT. For iterating on the Ampere kernel; scripts/gpu-check.sh is the full run.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
TESTS=${TESTS:-kernel\.}
FILTER=${FILTER:-bf16}
BUILD=build/gpu
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTRATA_ENABLE_CUDA=ON -DSTRATA_BUILD_TESTS=ON \
  -DSTRATA_BUILD_EXAMPLES=ON -DSTRATA_BUILD_BENCH=ON >"$OUT/configure.log" 2>&1 || { tail "$OUT/configure.log"; exit 1; }
cmake --build "$BUILD" --target strata_kernel_tests sm80_gemm >"$OUT/build.log" 2>&1 || { grep -m5 -A5 error "$OUT/build.log"; exit 1; }
ctest --test-dir "$BUILD" -R "$TESTS" --output-on-failure >"$OUT/ctest.log" 2>&1
grep -E "tests passed|tests failed|Failed|\*\*\*" "$OUT/ctest.log" | head -20
cuobjdump --dump-sass "$BUILD/bench/sm80_gemm" 2>/dev/null |
  awk '/Function :/{f=$3} /LDL|STL/{c[f]++} END{for(k in c) print c[k], k}' | sort -n | sed -E 's/_ZN6strata//' | cut -c1-160 >"$OUT/local-memory.txt"
echo "kernels with local memory (LDL/STL count):"; cat "$OUT/local-memory.txt"
"$BUILD/bench/sm80_gemm" --benchmark_filter="$FILTER" >"$OUT/bench.log" 2>&1
head -1 "$OUT/bench.log"
grep -E "TFLOPs" "$OUT/bench.log" | sed -E 's/iterations:1\/manual_time//' |
  awk '{printf "%-30s", $1; for(i=5;i<=NF;i++) if ($i ~ /strata_|streamk|tiles_T|cublas_|ratio/) printf " %s", $i; print ""}' |
  sed -E 's/([0-9]+\.[0-9]{2})[0-9]*/\1/g'
# Where the local-memory instructions sit in each bf16 kernel of the large tile, against the span
# of its mma.sync (HMMA) instructions: outside that span they cost nothing per K tile.
cuobjdump --dump-sass "$BUILD/bench/sm80_gemm" 2>/dev/null | awk '
  /Function :/ { if (f != "") report(); f = $3; first = ""; last = ""; locals = "" }
  /HMMA/ { match($0, /\/\*[0-9a-f]+\*\//); o = substr($0, RSTART + 2, RLENGTH - 4); if (first == "") first = o; last = o }
  /LDL|STL/ { match($0, /\/\*[0-9a-f]+\*\//); locals = locals " " substr($0, RSTART + 2, RLENGTH - 4) }
  function report() { if (f ~ /bfloat16.*Li256ELi128ELi64E/) print f "\n  HMMA span " first ".." last "; LDL/STL at" locals }
  END { report() }' | sed -E 's/_ZN6strata//' | cut -c1-200 >"$OUT/local-memory-where.txt"
cat "$OUT/local-memory-where.txt"
