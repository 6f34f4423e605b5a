#!/usr/bin/env bash
# Slurm smoke test of shards, opt-in: needs root (or passwordless apt) and network to
# install Debian's slurmctld, slurmd, slurm-client and munge.
#
# It starts a one-node Slurm cluster on loopback from a temporary folder (no systemd: munged,
# slurmctld and slurmd are started directly with a minimal slurm.conf), generates a Yut corpus,
# submits a 4-task job array (`gamebench run --shard auto`) and a merge job that depends on it
# (`--dependency=afterok`), and checks that the merged CSV equals a single-machine run of the same
# corpus apart from the time_ns column. Every daemon is stopped by its PID on exit.
#
# Exit codes: 0 passed; 1 the comparison or a job failed; 2 the cluster could not be set up;
# 3 the packages could not be installed (no root, no network: .ci/run then skips the test).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARDS=4
FILES=24            # generated corpus files
WAIT_SECONDS=180    # for the whole array and the merge
PORT_CTLD=16817     # away from Slurm's defaults (6817/6818), in case a real cluster is here
PORT_SLURMD=16818
NODE=gbnode

say() { printf '== %s\n' "$*"; }
die() { printf 'slurm-smoke: %s\n' "$*" >&2; exit "${2:-1}"; }
# shellcheck source=.ci/smoke-common.sh
. "$(dirname "$0")/smoke-common.sh"

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurmctld slurmd slurm-client munge (apt-get)"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        slurmctld slurmd slurm-client munge >/dev/null || die "cannot install Slurm" 3
fi
[ "$(id -u)" -eq 0 ] || die "slurmd must run as root here (it starts jobs as their user)" 3

# GAMEBENCH_BIN: a binary already built (.ci/run passes the test build's); else one is built.
BIN="${GAMEBENCH_BIN:-}"
if [ -z "$BIN" ]; then
    say "building gamebench"
    (cd "$ROOT" && cargo build --release --quiet)
    BIN="$ROOT/target/release/gamebench"
fi

TMP=$(mktemp -d /tmp/gamebench-slurm.XXXXXX)
chmod 755 "$TMP"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        # Wait (at most 10 s) so nothing outlives the script.
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$pid" 2>/dev/null || true
    done
    if [ -n "${KEEP_TMP:-}" ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
mkdir -p "$TMP"/{munge,state,spool,logs,shards}
chmod 700 "$TMP/munge"

say "starting munged"
dd if=/dev/urandom of="$TMP/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$TMP/munge/munge.key"
munged --foreground --force --key-file="$TMP/munge/munge.key" \
    --socket="$TMP/munge/munge.socket" --pid-file="$TMP/munge/munged.pid" \
    --log-file="$TMP/munge/munged.log" --seed-file="$TMP/munge/munged.seed" \
    2>>"$TMP/logs/munged.stderr" &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$TMP/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$TMP/munge/munge.socket" ] || die "munged did not start: $(cat "$TMP/munge/munged.log")" 2

CPUS=$(nproc)
cat > "$TMP/slurm.conf" <<CONF
ClusterName=gamebench-smoke
SlurmctldHost=$(hostname)(127.0.0.1)
SlurmUser=root
SlurmctldPort=$PORT_CTLD
SlurmdPort=$PORT_SLURMD
AuthType=auth/munge
AuthInfo=socket=$TMP/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/logs/slurmctld.log
SlurmdLogFile=$TMP/logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MinJobAge=600
NodeName=$NODE NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=smoke Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$TMP/slurm.conf"

say "starting slurmctld and slurmd (loopback, ports $PORT_CTLD/$PORT_SLURMD)"
slurmctld -D -i -f "$SLURM_CONF" 2>>"$TMP/logs/slurmctld.stderr" &
PIDS+=($!)
slurmd -D -N "$NODE" -f "$SLURM_CONF" 2>>"$TMP/logs/slurmd.stderr" &
PIDS+=($!)
for _ in $(seq 100); do
    sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed)' && break
    sleep 0.2
done
sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed)' \
    || die "the node did not come up: $(sinfo 2>&1; tail -20 "$TMP/logs/slurmctld.log" "$TMP/logs/slurmd.log")" 2
sinfo

say "generating the corpus and the single-machine reference run"
"$BIN" gen yut --profile random --seed 7 --count "$FILES" --out "$TMP/corpus/yut"
"$BIN" run "$TMP/corpus" --check --quiet -j 1 --csv "$TMP/single.csv" >/dev/null

say "submitting a $SHARDS-task array and a dependent merge"
cat > "$TMP/shard.sbatch" <<JOB
#!/bin/sh
#SBATCH --job-name=gamebench-shard
#SBATCH --array=0-$((SHARDS - 1))
#SBATCH --cpus-per-task=1
#SBATCH --output=$TMP/logs/shard-%A_%a.log
exec "$BIN" run "$TMP/corpus" --check --quiet --shard auto --shard-dir "$TMP/shards" --resume
JOB
ARRAY=$(sbatch --parsable "$TMP/shard.sbatch")
MERGE=$(sbatch --parsable --job-name=gamebench-merge --dependency=afterok:"$ARRAY" \
    --output="$TMP/logs/merge-%j.log" \
    --wrap "exec '$BIN' merge '$TMP/shards' -o '$TMP/merged.csv'")
echo "array job $ARRAY, merge job $MERGE (afterok:$ARRAY)"

state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2; }
for _ in $(seq $((WAIT_SECONDS * 2))); do
    case "$(state "$MERGE")" in
        COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break ;;
    esac
    sleep 0.5
done
say "job states"
for k in $(seq 0 $((SHARDS - 1))); do
    echo "array task ${ARRAY}_$k: $(state "${ARRAY}_$k")"
done
echo "merge job $MERGE: $(state "$MERGE")"
say "merge job log"
cat "$TMP"/logs/merge-*.log || true
[ "$(state "$MERGE")" = COMPLETED ] || {
    tail -n +1 "$TMP"/logs/shard-*.log
    die "the merge job did not complete"
}

say "shard manifests"
for k in $(seq 0 $((SHARDS - 1))); do
    tr -d '\n ' < "$TMP/shards/shard-$k-of-$SHARDS.json"; echo
done

grep -q '"threads": 1,' "$TMP/shards/shard-0-of-$SHARDS.json" \
    || die "the shards did not take their thread count from --cpus-per-task=1"

say "comparing the merged CSV with the single-machine run (without the measured columns)"
compare_merged "$TMP/single.csv" "$TMP/merged.csv" "$TMP"
say "requeueing array task ${ARRAY}_1 (as a scheduler would): it resumes and changes nothing"
cp "$TMP/shards/results.shard-1-of-$SHARDS.csv" "$TMP/shard-1-before.csv"
scontrol requeue "${ARRAY}_1"
# Slurm delays a requeued job's start (by about two minutes); the test need not wait for that.
scontrol update JobId="${ARRAY}_1" StartTime=now || true
for _ in $(seq $((WAIT_SECONDS * 2))); do
    grep -q '"resumed": [1-9]' "$TMP/shards/shard-1-of-$SHARDS.json" 2>/dev/null \
        && [ "$(state "${ARRAY}_1")" = COMPLETED ] && break
    sleep 0.5
done
echo "array task ${ARRAY}_1: $(state "${ARRAY}_1"), restarts: $(scontrol show job "${ARRAY}_1" | grep -o 'Restarts=[0-9]*')"
grep -E '"(resumed|shard_cases|start|end)"' "$TMP/shards/shard-1-of-$SHARDS.json"
grep -q '"resumed": 6,' "$TMP/shards/shard-1-of-$SHARDS.json" \
    || die "the requeued task did not resume its 6 finished cases"
cmp "$TMP/shard-1-before.csv" "$TMP/shards/results.shard-1-of-$SHARDS.csv" \
    || die "the requeued task changed its CSV"
"$BIN" merge "$TMP/shards" -o "$TMP/merged-again.csv" >/dev/null
cmp "$TMP/merged.csv" "$TMP/merged-again.csv" || die "merging after the requeue gave another CSV"
echo "the requeued shard kept its rows byte for byte; the merge is unchanged"

say "slurm smoke test passed"
