#!/usr/bin/env bash
# A change against its base in one device call: the tile probe (bench/tools/sm90_tile_probe.cu)
# built against the headers of other revisions and of the working tree, then each run in turn on
# the same GPU.
#   here:   scripts/ab-probe-sm90.sh export <rev> ...   writes build/ab/<rev>/include (git archive);
#           carry build/ab to the device
#   there:  scripts/ab-probe-sm90.sh run [m,n,k ...]    builds one probe per build/ab/* tree and
#           one for the working tree ("current") in parallel, then runs them one after another
# The PROBE_* settings (PROBE_ONLY, PROBE_PASSES, PROBE_PDL, PROBE_L2, PROBE_L2_PAIRS) pass through
# to the probe. Binaries and build logs go to $OUT/<name>.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
mode=${1:?usage: ab-probe-sm90.sh export <rev> ... | run [m,n,k ...]}
shift
case $mode in
  export)
    for rev in "$@"; do
      rm -rf "build/ab/$rev" && mkdir -p "build/ab/$rev" &&
        git archive "$rev" include | tar -x -C "build/ab/$rev" || exit 1
      echo "build/ab/$rev/include: $(git rev-parse --short "$rev")"
    done
    ;;
  run)
    OUT=${OUT:-./gpu-out}
    names=()
    for dir in build/ab/*/include; do
      [[ -d $dir ]] || continue
      name=$(basename "$(dirname "$dir")")
      names+=("$name")
      STUDY_BUILD_ONLY=1 STUDY_INCLUDE="$dir" OUT="$OUT/$name" bash scripts/study-tool.sh sm90_tile_probe &
    done
    names+=(current)
    STUDY_BUILD_ONLY=1 OUT="$OUT/current" bash scripts/study-tool.sh sm90_tile_probe &
    wait
    for name in "${names[@]}"; do
      echo "=== headers: $name"
      "$OUT/$name/sm90_tile_probe" "$@" || echo "=== $name: exit $?"
    done
    ;;
  *)
    echo "ab-probe-sm90.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
