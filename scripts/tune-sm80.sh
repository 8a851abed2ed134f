#!/usr/bin/env bash
# On the GPU machine: builds bench/sm80_gemm once per 16-bit tile (in parallel) and runs each on a
# few shapes, so tiles are compared in one call, back to back, on the same GPU.
#   scripts/tune-sm80.sh [filter] [tile ...]
#     filter   Google Benchmark regex (default: bf16 squares 4096 and 8192)
#     tile     "BM,BN,BK,WarpsM,WarpsN,Stages[,WarpsK]" for the large tile (default: a few known ones)
#   NARROW="BM,BN,BK,WM,WN,Stages" overrides the decode tile the same way for every build.
#   SMALL="..." overrides the small tile (below half a wave of large tiles); SMALL=same uses each build's
#   large tile there too (so every square runs on the tile under test).
#   SLOT=small|medium|thin|narrow makes the listed tiles replace that configuration instead of the
#   large one (small: below half a wave of large tiles; medium: 64 < m <= 128; thin: 32 < m <= 64;
#   narrow: m <= 32).
#   NCU=1 also profiles build 0's first GEMM kernel launch with Nsight Compute (stall reasons,
#   pipes), on NCU_FILTER's shape (a benchmark regex; default bf16 8192^3).
# Logs go to $OUT (default ./gpu-out; run logs carry TB/s too); a table of strata/cuBLAS TFLOP/s
# per shape closes the run.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

OUT=${OUT:-./gpu-out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
filter=${1:-'bf16/square/(4096|8192)'}
shift || true
tiles=("$@")
((${#tiles[@]})) || tiles=("128,256,64,2,4,3" "256,128,64,4,2,3" "128,256,64,2,4,4" "128,256,32,2,4,4")

if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
flags=(-std=c++20 --expt-relaxed-constexpr -gencode arch=compute_80,code=sm_90 -O3 -I include)

# nvcc splits -D values at commas, so each tile reaches the bench through a forced include.
for i in "${!tiles[@]}"; do
  {
    case "${SLOT:-large}" in
      large) echo "#define STRATA_SM80_TILE ${tiles[$i]}" ;;
      small) echo "#define STRATA_SM80_SMALL_TILE ${tiles[$i]}" ;;
      medium) echo "#define STRATA_SM80_MEDIUM_TILE ${tiles[$i]}" ;;
      thin) echo "#define STRATA_SM80_THIN_TILE ${tiles[$i]}" ;;
      narrow) echo "#define STRATA_SM80_NARROW_TILE ${tiles[$i]}" ;;
      *) echo "#error unknown SLOT ${SLOT}" ;;
    esac
    [[ -n "${NARROW:-}" ]] && echo "#define STRATA_SM80_NARROW_TILE ${NARROW}"
    if [[ "${SMALL:-}" == same ]]; then
      echo "#define STRATA_SM80_SMALL_TILE ${tiles[$i]}"
    elif [[ -n "${SMALL:-}" ]]; then
      echo "#define STRATA_SM80_SMALL_TILE ${SMALL}"
    fi
  } >"$OUT/tile$i.h"
  nvcc "${flags[@]}" -include "$OUT/tile$i.h" -Xptxas -v bench/sm80_gemm.cu -o "$OUT/bench$i" \
    -lcublas -lbenchmark >"$OUT/build$i.log" 2>&1 &
done
wait

# Clocks, power and temperature while the benches run (throttling shows here).
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 >"$OUT/clocks.log" 2>&1 &
smi=$!

printf '%-22s %s\n' tile "results (strata / cuBLAS)"
for i in "${!tiles[@]}"; do
  if [[ ! -x "$OUT/bench$i" ]]; then
    printf '%-22s build failed: %s\n' "${tiles[$i]}" "$(grep -m1 error "$OUT/build$i.log")"
    continue
  fi
  spills=$(grep -c "bytes spill stores" "$OUT/build$i.log")
  nonzero=$(grep "bytes spill stores" "$OUT/build$i.log" | grep -vc " 0 bytes spill stores")
  "$OUT/bench$i" --benchmark_filter="$filter" >"$OUT/run$i.log" 2>&1
  # shape strata/cuBLAS TFLOP/s
  row=$(grep -E "^(bf16|f16|tf32)/" "$OUT/run$i.log" | awk '{
      s = c = "?"
      for (f = 2; f <= NF; ++f) {
        if ($f ~ /^strata_TFLOPs=/) s = substr($f, 15)
        if ($f ~ /^cublas_TFLOPs=/) c = substr($f, 15)
      }
      sub(/\/iterations.*/, "", $1)
      printf "%s %s/%s  ", $1, s, c }')
  printf '%-22s %s [kernels spilling: %s of %s]\n' "${tiles[$i]}" "$row" "$nonzero" "$spills"
done

if [[ "${NCU:-}" == 1 && -x "$OUT/bench0" ]]; then
  ncu --clock-control none -k regex:sm80_gemm -c 1 --section SpeedOfLight --section ComputeWorkloadAnalysis \
    --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy \
    --section LaunchStats --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__pipe_tensor_op_hmma.*pct_of_peak_sustained_active,regex:l1tex__data_pipe_lsu_wavefronts_mem_shared.*pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second" \
    "$OUT/bench0" --benchmark_filter="${NCU_FILTER:-bf16/square/8192/}" >"$OUT/ncu.log" 2>&1
  echo "ncu: exit $? (report in $OUT/ncu.log)"
fi
kill "$smi" 2>/dev/null
if [[ "${SASS:-}" == 1 && -x "$OUT/bench0" ]]; then
  cuobjdump --dump-sass "$OUT/bench0" | gzip >"$OUT/sass0.txt.gz"
fi
