#!/usr/bin/env bash
# GNU parallel smoke test of shards, opt-in: the lighter sibling of slurm-smoke.sh.
#
# Generates a Yut corpus, runs it as 4 shards with GNU parallel (`--shard {}/4`, two at a time),
# merges them and checks that the merged CSV equals a single-machine run apart from time_ns.
# Installs Debian's `parallel` when it is missing (root or passwordless sudo needed then).
#
# Exit codes: 0 passed; 1 the comparison or a shard failed; 2 GNU parallel is unavailable.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARDS=4
FILES=30

say() { printf '== %s\n' "$*"; }
die() { printf 'parallel-smoke: %s\n' "$*" >&2; exit "${2:-1}"; }
# shellcheck source=.ci/smoke-common.sh
. "$(dirname "$0")/smoke-common.sh"

if ! command -v parallel >/dev/null; then
    say "installing GNU parallel (apt-get)"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        parallel >/dev/null || die "cannot install GNU parallel" 2
fi

say "building gamebench"
(cd "$ROOT" && cargo build --release --quiet)
BIN="$ROOT/target/release/gamebench"
TMP=$(mktemp -d /tmp/gamebench-parallel.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

say "generating the corpus and the single-machine reference run"
"$BIN" gen yut --profile random --seed 9 --count "$FILES" --out "$TMP/corpus/yut"
"$BIN" run "$TMP/corpus" --check --quiet -j 1 --csv "$TMP/single.csv" >/dev/null

say "running $SHARDS shards with GNU parallel"
parallel --will-cite --halt now,fail=1 -j 2 \
    "$BIN" run "$TMP/corpus" --check --quiet -j 1 --shard {}/"$SHARDS" --shard-dir "$TMP/shards" \
    ::: $(seq 0 $((SHARDS - 1))) >/dev/null
"$BIN" merge "$TMP/shards" -o "$TMP/merged.csv"

say "comparing the merged CSV with the single-machine run (without the measured columns)"
compare_merged "$TMP/single.csv" "$TMP/merged.csv" "$TMP"
say "parallel smoke test passed"
