# Shared by .ci/slurm-smoke.sh and .ci/parallel-smoke.sh (sourced; they define `die`).

# compare_merged SINGLE MERGED WORKDIR: the merged shards' CSV must equal the single-machine
# run's CSV apart from the time_ns column.
compare_merged() {
    local single=$1 merged=$2 work=$3 column
    column=$(head -1 "$single" | tr ',' '\n' | grep -n '^time_ns$' | cut -d: -f1)
    if diff <(cut -d, -f"$column" --complement "$single") \
            <(cut -d, -f"$column" --complement "$merged") >"$work/diff.txt"; then
        echo "identical apart from time_ns: $(($(wc -l < "$merged") - 1)) rows"
    else
        head -20 "$work/diff.txt"
        die "the merged CSV differs from the single-machine run"
    fi
}
