#!/usr/bin/env bash
# On the GPU machine: the tile probe's variants and cuBLAS under Nsight Compute, one table row per
# kernel and grid: µs, DRAM bytes read, L2 bytes (all, and the reads the SMs asked for), bytes
# L2 delivered to the SMs, L2 hit rate and load, SM clock. It measures what the probe's operand
# megabytes only model (bench/RESULTS.md, "What bounds the misses": which bytes bound m = 128).
#   scripts/ncu-probe-sm90.sh [m,n,k ...]       (default 128,4096,4096)
#   PROBE_ONLY=t1,t2     the probe's variants to profile (default: auto, 64x64 and the one-row plans)
#   PROBE_PDL=1          as the probe
#   NCU_CACHE=none       L2 kept between the kernels (default all: flushed before each, weights from DRAM)
#   NCU_METRICS=a,b,...  the metrics asked for by name (default below); the sections'
#                        own metrics are always printed to ncu-raw.csv
# Builds the probe (scripts/probe-sm90.sh, about 30 s) unless $OUT/sm90_tile_probe exists. The
# report, its raw CSV, the probe's output and the table go to $OUT (default ./gpu-out).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
# ncu beside nvcc where the PATH has neither (the probe's build finds nvcc itself: study-tool.sh).
command -v ncu >/dev/null || PATH="/usr/local/cuda/bin:$PATH"
command -v ncu >/dev/null || { echo "ncu-probe-sm90.sh: ncu not found"; exit 1; }
if [[ ! -x "$OUT/sm90_tile_probe" ]]; then
  OUT=$OUT STUDY_BUILD_ONLY=1 bash scripts/probe-sm90.sh || exit 1
fi
shapes=("$@")
((${#shapes[@]})) || shapes=(128,4096,4096)
export PROBE_ONLY=${PROBE_ONLY:-auto,64x64 pp,128x64,128x32,medium,large}
export PROBE_PASSES=0  # outputs checked only: two launches a variant, each profiled
metrics=${NCU_METRICS:-gpu__time_duration.sum,dram__bytes_read.sum,lts__t_bytes.sum,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second}
kernels='regex:sm90_gemm_kernel|nvjet|sm90_xmma|cutlass|gemm'
profile() {  # $1: extra ncu arguments (the metrics), or none
  rm -f "$OUT/ncu.ncu-rep"
  # shellcheck disable=SC2086
  ncu --clock-control none --cache-control "${NCU_CACHE:-all}" -k "$kernels" \
    --section SpeedOfLight --section MemoryWorkloadAnalysis_Chart --section LaunchStats $1 \
    -o "$OUT/ncu" "$OUT/sm90_tile_probe" "${shapes[@]}" >"$OUT/ncu-probe.txt" 2>&1
}
if ! profile "--metrics $metrics"; then
  echo "ncu with the named metrics failed (tail of $OUT/ncu-probe.txt below); again with the sections alone"
  tail -n 5 "$OUT/ncu-probe.txt"
  profile "" || { tail -n 20 "$OUT/ncu-probe.txt"; exit 1; }
fi
grep -E "WRONG|refused" "$OUT/ncu-probe.txt"
ncu --import "$OUT/ncu.ncu-rep" --page raw --csv >"$OUT/ncu-raw.csv" || exit 1
python3 scripts/ncu_table.py <"$OUT/ncu-raw.csv" | tee "$OUT/ncu-table.txt"
