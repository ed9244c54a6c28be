#!/usr/bin/env bash
# Checks that a book evaluated in shards on a Slurm cluster is byte for byte the book one
# unsharded `othbook book evaluate` writes, and that a book built in shards and merged is the
# book one `othbook build` writes. It starts a one-node Slurm cluster on this machine, runs the
# job files of docs/cluster.md (taken from the document itself, so that what it shows is what
# is tested): evaluate-shards.sbatch as a 3-task job array and apply-parts.sbatch as a job
# depending on it, then build-shards.sbatch and merge-shards.sbatch the same way; it does
# each job's work again in one process and compares the files. Prints PASS or FAIL for each;
# exits non-zero on a FAIL.
#
#   scripts/slurm-local.sh                 # the check above
#   scripts/slurm-local.sh --cluster-only  # a dummy array job instead: checks the cluster alone
#
# Environment: OTHBOOK (the binary to use; default: `cargo build --release`, then
# $CARGO_TARGET_DIR or target/release/othbook), SLURM_LOCAL_PORT (slurmctld's port, slurmd
# takes the next; default 6817), SLURM_LOCAL_KEEP=1 (keep the temporary directory).
#
# Runs as root (the sandbox and CI both do): Slurm runs the jobs as the submitting user, and
# munged and slurmd need root here. Installs munge and Slurm with apt-get if they are missing;
# everything else (keys, config, state, logs, books) lives in a temporary directory, and every
# daemon it starts is stopped on exit, whatever the outcome.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
mode=othbook
case "${1:-}" in
  "") ;;
  --cluster-only) mode=cluster ;;
  *) echo "usage: $0 [--cluster-only]" >&2; exit 2 ;;
esac

shards=3
depth=6
# Selective leaf searches: the setting the parts files and the header must carry through.
selectivity=87
# Real games, read in place (never copied into the repository): 320 games of 2021 make a
# 331-position book at 14 plies, which evaluates in seconds at depth 6.
games="$repo/../shared/data/wthor/WTH_2021.wtb"
# The sharded build: six years of WTHOR (about 3,000 games) in $shards shards.
build_years=(2016 2017 2018 2019 2020 2021)
ctld_port="${SLURM_LOCAL_PORT:-6817}"
slurmd_port=$((ctld_port + 1))
start=$SECONDS

log() { printf '[slurm-local %3ds] %s\n' $((SECONDS - start)) "$*"; }

if [[ $EUID -ne 0 ]]; then
  echo "slurm-local: run as root (munged, slurmd and the jobs run as this user)" >&2
  exit 2
fi

# --- packages ---------------------------------------------------------------------------
# slurm-wlm is only a metapackage for these three; without recommends it is 8 packages
# (about 10 s) instead of 43.
if ! command -v munged >/dev/null || ! command -v slurmctld >/dev/null \
  || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null; then
  log "installing munge and slurm (apt-get)"
  # apt's chatter goes to a log that is shown only if the install fails.
  apt_log="$(mktemp /tmp/slurm-local-apt.XXXXXX)"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends munge slurmctld slurmd slurm-client; } >"$apt_log" 2>&1; then
    cat "$apt_log"
    rm -f "$apt_log"
    exit 1
  fi
  rm -f "$apt_log"
fi
# The packages' postinst cannot start the services (no systemd, policy-rc.d), and we would
# not use them anyway: this script runs its own daemons on its own socket and ports.

# --- othbook and the book ---------------------------------------------------------------
# Built before any daemon starts, so that a failed build leaves nothing to clean up.
if [[ $mode == othbook ]]; then
  if [[ -z "${OTHBOOK:-}" ]]; then
    log "building othbook (cargo build --release)"
    (cd "$repo" && cargo build --release --quiet --bin othbook)
    OTHBOOK="${CARGO_TARGET_DIR:-$repo/target}/release/othbook"
  fi
  OTHBOOK="$(realpath "$OTHBOOK")"
  [[ -x "$OTHBOOK" ]] || { echo "slurm-local: $OTHBOOK is not executable" >&2; exit 2; }
  [[ -f "$games" ]] || { echo "slurm-local: $games is missing (../shared/data beside the clone)" >&2; exit 2; }
fi

work="$(mktemp -d /tmp/slurm-local.XXXXXX)"
# munged insists that the directories on its key's and socket's paths are writable by
# no one else, and wants them searchable (x) by all so that any user could reach the socket.
chmod 711 "$work"
mkdir -p "$work"/{munge,ctld,spool,jobs}
pids=()

# --- cleanup ------------------------------------------------------------------------------
cleanup() {
  local rc=$?
  set +e
  if ((${#pids[@]})); then
    # Cancel what is left (after a failure) before stopping slurmd: slurmstepd, which runs
    # each job, is not slurmd's child and would outlive it.
    if [[ -n "${SLURM_CONF:-}" ]] && squeue -h -o %i 2>/dev/null | grep -q .; then
      scancel --full --user="$(id -un)" 2>/dev/null
      for _ in $(seq 20); do squeue -h -o %i 2>/dev/null | grep -q . || break; sleep 0.5; done
    fi
    log "stopping daemons (pids ${pids[*]})"
    # Reverse order: slurmd, slurmctld, then munged, which both authenticate through.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
      kill "${pids[i]}" 2>/dev/null
      for _ in $(seq 50); do kill -0 "${pids[i]}" 2>/dev/null || break; sleep 0.1; done
      kill -9 "${pids[i]}" 2>/dev/null
      wait "${pids[i]}" 2>/dev/null
    done
  fi
  if ((rc != 0)) && [[ -d "$work" ]]; then
    for f in "$work"/munge/munged.log "$work"/ctld/slurmctld.log "$work"/spool/slurmd.log "$work"/jobs/*.log; do
      [[ -f "$f" ]] || continue
      echo "--- last lines of $f"
      tail -n 15 "$f"
    done
  fi
  if [[ "${SLURM_LOCAL_KEEP:-}" == 1 ]]; then
    log "kept $work"
  else
    rm -rf "$work"
  fi
  log "total $((SECONDS - start)) s"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- munge --------------------------------------------------------------------------------
# A key of our own and a socket of our own, so nothing in /etc or /run is used or changed.
mungekey --create --keyfile="$work/munge/munge.key"
chmod 600 "$work/munge/munge.key"
# --force: munged refuses to run as root without it. --foreground so that $! is its pid.
munged --force --foreground \
  --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
  --seed-file="$work/munge/munged.seed" >"$work/munge/stdout.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -S "$work/munge/munge.socket" ]] && break; sleep 0.1; done
[[ -S "$work/munge/munge.socket" ]] || { log "munged did not start"; exit 1; }

# --- slurm --------------------------------------------------------------------------------
node=localhost
cpus="$(nproc)"
# The node's memory as slurmd finds it, less a margin (slurmd drains a node that has less than
# its RealMemory): job files that ask for memory (--mem) need it declared, as on any cluster.
mem_mb="$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)"
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<EOF
# A one-node cluster on localhost. Written by scripts/slurm-local.sh.
ClusterName=othbook-local
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
# Our own munged; the default socket in /run/munge does not exist here.
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
# Everything as root: there is no slurm user in a plain Debian container, and jobs run as
# the submitter (root) anyway.
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/ctld
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/ctld/slurmctld.pid
SlurmdPidFile=$work/spool/slurmd.pid
SlurmctldLogFile=$work/ctld/slurmctld.log
SlurmdLogFile=$work/spool/slurmd.log
# No cgroups: the sandbox (gVisor here, a container in CI) has no writable cgroup tree and
# no systemd to delegate one, so every cgroup plugin is off. linuxproc tracks a job's
# processes through /proc parentage instead, task/none does no CPU binding, and
# jobacct_gather/none collects no usage (there is no accounting database either).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
# No mail is sent; the default /bin/mail is not installed and slurmctld complains.
MailProg=/bin/true
# Schedule cores, not whole nodes, so that tasks of one CPU run side by side; memory is not
# a consumable resource here.
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# A node that was down is usable as soon as its slurmd registers (it is ours, and new).
ReturnToService=2
# Quick scheduling for a short test; keep finished jobs 5 minutes for scontrol to report.
SchedulerParameters=sched_interval=1
MinJobAge=300
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

log "starting slurmctld and slurmd ($cpus CPUs, ports $ctld_port/$slurmd_port, $work)"
# -D: stay in the foreground so that $! is the daemon's pid (no pid-file race);
# -i: ignore state left by an earlier run (there is none: the directory is new).
slurmctld -D -i -f "$SLURM_CONF" >"$work/ctld/stdout.log" 2>&1 &
pids+=($!)
# -N: the node's name in slurm.conf, whatever this machine's hostname is.
slurmd -D -N "$node" -f "$SLURM_CONF" >"$work/spool/stdout.log" 2>&1 &
pids+=($!)

# The node is ready when slurmctld has heard from slurmd and marks it idle.
state=""
for _ in $(seq 60); do
  state="$(sinfo -h -n "$node" -o %T 2>/dev/null || true)"
  [[ $state == idle ]] && break
  sleep 0.5
done
if [[ $state != idle ]]; then
  log "node $node did not become idle (state: '${state:-no answer}')"
  exit 1
fi
log "cluster up: $(sinfo -h -o '%P %D node(s) %c CPUs %T')"

# Waits for a job (an array waits for all its tasks) to leave the queue, then fails unless
# every task completed with exit code 0. Polls squeue once a second: `sbatch --wait` would
# do, but it sleeps 2 s, then 8 s, then 32 s between its polls.
wait_job() {
  local id=$1 states
  while squeue -h -j "$id" -o %i 2>/dev/null | grep -q .; do sleep 1; done
  # One line per task; finished jobs stay known to slurmctld for MinJobAge.
  states="$(scontrol -o show job "$id" | grep -o 'JobState=[A-Z_]* .*ExitCode=[0-9:]*' \
    | sed -E 's/^JobState=([A-Z_]+) .*ExitCode=([0-9:]+)$/\1 \2/' | sort | uniq -c)"
  log "job $id: $(echo "$states" | tr -s ' \n' ' ')"
  ! echo "$states" | grep -qv 'COMPLETED 0:0'
}

cd "$work/jobs"
if [[ $mode == cluster ]]; then
  # --- a dummy array: each task writes its index; a dependent job gathers them ------------
  cat >task.sh <<'EOF'
#!/bin/bash
echo "$SLURM_ARRAY_TASK_ID" >"out.$SLURM_ARRAY_TASK_ID"
EOF
  printf '#!/bin/bash\ncat out.* >gathered\n' >gather.sh
  array="$(sbatch --parsable --array=0-$((shards - 1)) --output=task.%A_%a.log task.sh)"
  gather="$(sbatch --parsable --dependency=afterok:"$array" --output=gather.%j.log gather.sh)"
  log "submitted array job $array and dependent job $gather"
  wait_job "$array" || { log "FAIL: an array task failed"; exit 1; }
  wait_job "$gather" || { log "FAIL: the dependent job failed"; exit 1; }
  expected="$(seq 0 $((shards - 1)) | tr '\n' ' ')"
  got="$(tr '\n' ' ' <gathered)"
  if [[ $got == "$expected" ]]; then
    log "PASS: $shards array tasks and the dependent job ran"
  else
    log "FAIL: gathered '$got', expected '$expected'"
    exit 1
  fi
  exit 0
fi

# --- othbook: sharded on Slurm vs one process -----------------------------------------------
"$OTHBOOK" build "$games" -o book.book --plies 14 --min-games 2 >build.log 2>&1 \
  || { cat build.log; exit 1; }
log "book: $(tail -n 1 build.log)"

# The job files are the code blocks after their "<!-- job file: NAME" markers in
# docs/cluster.md; the environment sets their parameters, as the document describes.
for name in evaluate-shards.sbatch apply-parts.sbatch build-shards.sbatch merge-shards.sbatch; do
  awk -v name="$name" '
    $0 ~ "^<!-- job file: " name " " { found = 1; next }
    found == 1 && /^```/ { found = 2; next }
    found == 2 && /^```/ { exit }
    found == 2 { print }' "$repo/docs/cluster.md" >"$name"
  grep -q '^#!/bin/bash' "$name" || { log "no job file $name in docs/cluster.md"; exit 1; }
done
export BOOK=book.book DEPTH=$depth SELECTIVITY=$selectivity SHARDS=$shards OTHBOOK OUT=sharded.book
array="$(sbatch --parsable --array=0-$((shards - 1)) evaluate-shards.sbatch)"
apply="$(sbatch --parsable --dependency=afterok:"$array" apply-parts.sbatch)"
log "submitted array job $array ($shards shards, depth $depth, selectivity $selectivity) and apply job $apply"
t0=$SECONDS
wait_job "$array" || { log "FAIL: a shard failed"; exit 1; }
wait_job "$apply" || { log "FAIL: the apply job failed"; exit 1; }
log "sharded evaluation and apply on Slurm: $((SECONDS - t0)) s"

# The single evaluation also uses one thread, like each shard: the comparison is of
# sharding, not of thread counts.
t0=$SECONDS
"$OTHBOOK" book evaluate book.book -o single.book --depth "$depth" --selectivity "$selectivity" \
  --threads 1 >single.log 2>&1 \
  || { cat single.log; exit 1; }
log "unsharded evaluation: $((SECONDS - t0)) s"

# Two unevaluated copies of the book would compare equal too.
if cmp -s book.book single.book; then
  log "FAIL: the evaluation left the book unchanged"
  exit 1
fi
if cmp sharded.book single.book; then
  log "PASS: sharded.book and single.book are identical ($(stat -c %s single.book) bytes)"
else
  log "FAIL: sharded.book differs from single.book"
  exit 1
fi

# --- the build: sharded on Slurm vs one process ------------------------------------------------
mkdir "$work/build" && cd "$work/build"
for name in build-shards.sbatch merge-shards.sbatch; do mv "$work/jobs/$name" .; done
# The same paths for the shards and the whole build: the book records its sources as given.
for y in "${build_years[@]}"; do echo "$repo/../shared/data/wthor/WTH_$y.wtb"; done >files.txt
export FILES=files.txt PLIES=30 N=$shards MIN_GAMES=2
array="$(sbatch --parsable --array=0-$((shards - 1)) --cpus-per-task=1 build-shards.sbatch)"
merge="$(sbatch --parsable --dependency=afterok:"$array" merge-shards.sbatch)"
log "submitted build array $array ($shards shards of ${#build_years[@]} files) and merge job $merge"
t0=$SECONDS
wait_job "$array" || { log "FAIL: a build shard failed"; exit 1; }
wait_job "$merge" || { log "FAIL: the merge job failed"; exit 1; }
log "sharded build and merge on Slurm: $((SECONDS - t0)) s"
mapfile -t files <files.txt
"$OTHBOOK" build "${files[@]}" -o whole.book --plies "$PLIES" --min-games "$MIN_GAMES" \
  >whole.log 2>&1 || { cat whole.log; exit 1; }
if cmp all.book whole.book; then
  log "PASS: the merged shards and whole.book are identical ($(stat -c %s whole.book) bytes)"
else
  log "FAIL: the merged shards differ from whole.book"
  exit 1
fi
