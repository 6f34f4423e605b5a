#!/bin/sh
# The false-alarm and detection rates of `run --fail-if-slower` (docs/compare.md, "Interleaved
# A/B runs"): N trials of a busy-loop program against itself and against itself made SLOW_PCT
# longer, on 20 Yut cases, quiet and with two `yes > /dev/null` hogs beside it.
#
#   benches/duet_trials.sh [GAMEBENCH] [N] [TIME_S] [THRESHOLD_PCT] [MEASURE] [SLOW_PCT] [LOADS] [SLOW_N]
#
# MEASURE is what `run --measure` is given (cpu, the default, or instructions), SLOW_PCT how
# much longer the slower pair's loop is (default 5), LOADS which loads to run ("quiet loaded",
# the default, or one of them), SLOW_N the trials of the slower pair (default N; 0 runs the
# identical pair alone). The figures of docs/compare.md: the identical pair
#   benches/duet_trials.sh target/release/gamebench 10 60 3 cpu 5 loaded 0
#   benches/duet_trials.sh target/release/gamebench 10 60 3 cpu 5 quiet 0
# and the slower pair
#   benches/duet_trials.sh target/release/gamebench 8 60 3 cpu 5 loaded 8   (then quiet)
# and the instruction trials of docs/compare.md:
#   benches/duet_trials.sh target/release/gamebench 3 300 0.5 instructions 1
#
# Prints one line per (load, pair): trials, exit-6 count, other exits. A false alarm is an exit
# 6 on the identical pair; a detection is an exit 6 on the slower pair; any other exit than 0
# or 6 is an error and is counted apart.
set -eu
G=${1:-target/release/gamebench}
N=${2:-10}
TIME=${3:-60}
PCT=${4:-3}
MEASURE=${5:-cpu}
SLOW_PCT=${6:-5}
LOADS=${7:-quiet loaded}
SLOW_N=${8:-$N}
# Busy-loop iterations per case for about 5 ms of CPU time, measured below.
TARGET_NS=5000000
G=$(cd "$(dirname "$G")" && pwd)/$(basename "$G")
work=$(mktemp -d)
hogs=""
cleanup() {
    for p in $hogs; do kill "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
cat > "$work/spin.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
/* Spins argv[1] iterations per case of the Yut input read from stdin (a case starts with a
   line of digits alone, its count of turns): an input of no case costs the start-up alone. */
int main(int argc, char **argv) {
    volatile unsigned long x = 0;
    unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 0, cases = 0;
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        char *p = line;
        while (*p >= '0' && *p <= '9') p++;
        if (p != line && (*p == '\n' || *p == 0)) cases++;
    }
    for (unsigned long c = 0; c < cases; c++)
        for (unsigned long i = 0; i < n; i++) x += i;
    return 0;
}
C
cc -O1 -o "$work/spin" "$work/spin.c"
"$G" gen yut -n 20 -o "$work/yut" --no-expected > /dev/null
# Calibration: the CPU time of 100M iterations on one case (best of 3), scaled to TARGET_NS.
one=$(ls "$work/yut"/*.in | head -n 1)
best=""
for _ in 1 2 3; do
    t=$( { /usr/bin/time -f '%U %S' "$work/spin" 100000000 < "$one"; } 2>&1 | awk '{print ($1+$2)*1e9}')
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
done
iters=$(echo "$TARGET_NS * 100000000 / $best" | bc)
slow=$(echo "$iters * (100 + $SLOW_PCT) / 100" | bc)
echo "calibration: $iters iterations per case (~5 ms), slower pair $slow; $N trials, --measure $MEASURE, --time $TIME, --fail-if-slower $PCT"
trials() { # load pair new_iters trials
    six=0; other=0
    i=0
    while [ "$i" -lt "$4" ]; do
        i=$((i + 1))
        set +e
        "$G" run "$work/yut" -e "old=cmd:$work/spin $iters" -e "new=cmd:$work/spin $3" \
            --fail-if-slower "$PCT" --time "$TIME" --seed "$i" --measure "$MEASURE" \
            > "$work/last.txt" 2>&1
        rc=$?
        set -e
        case $rc in
            6) six=$((six + 1)) ;;
            0) ;;
            *) other=$((other + 1)); cat "$work/last.txt" >&2 ;;
        esac
        grep -E '/ old|rounds:' "$work/last.txt" | tr '\n' ' ' >&2; echo "-> $rc ($(uptime | sed 's/.*load/load/'))" >&2
    done
    echo "$1 $2: $4 trials, exit 6 in $six, errors $other ($(uptime | sed 's/.*load/load/'))"
}
for load in $LOADS; do
    if [ "$load" = loaded ] && [ -z "$hogs" ]; then
        yes > /dev/null & hogs="$hogs $!"
        yes > /dev/null & hogs="$hogs $!"
    fi
    trials "$load" identical "$iters" "$N"
    trials "$load" "+$SLOW_PCT%" "$slow" "$SLOW_N"
done
