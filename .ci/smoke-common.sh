# Shared by .ci/slurm-smoke.sh and .ci/parallel-smoke.sh (sourced; they define `die`).

# compare_merged SINGLE MERGED WORKDIR: the merged shards' CSV must equal the single-machine
# run's CSV apart from the measured columns (time_ns, and what depends on a measurement: whether
# a short case was timed by repetition and how often, the child's CPU and memory).
MEASURED_COLUMNS='^(time_ns|timing|repeats|user_ns|sys_ns|memory_kb)$'
compare_merged() {
    local single=$1 merged=$2 work=$3 columns
    columns=$(head -1 "$single" | tr ',' '\n' | grep -nE "$MEASURED_COLUMNS" | cut -d: -f1 | paste -sd,)
    if diff <(cut -d, -f"$columns" --complement "$single") \
            <(cut -d, -f"$columns" --complement "$merged") >"$work/diff.txt"; then
        echo "identical apart from the measured columns: $(($(wc -l < "$merged") - 1)) rows"
    else
        head -20 "$work/diff.txt"
        die "the merged CSV differs from the single-machine run"
    fi
}
