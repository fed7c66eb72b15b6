#!/usr/bin/env bash
# A sweep on a real Slurm: starts a private single-node cluster from Debian's slurm-wlm and
# munge (munged, slurmctld and slurmd on 127.0.0.1 with their own key, socket, ports, config
# and state folder, nothing from /etc), submits examples/slurm/sweep.sbatch as a 4-task job
# array over a bundled sweep, waits for it (bounded), merges the shards with
# examples/slurm/merge.py and compares the JSONL and CSV with a single-machine --jobs 2 run;
# then a capacity plan as a 3-task array (examples/slurm/capacity.sbatch), merged by
# `trnsim capacity --merge` and compared with the single-machine plan.
# Every daemon is stopped by its pid at the end, whatever happened; the test checks that
# none is left. It skips (exit 77, with the reason and the daemon's log) only when Slurm
# cannot start here; missing packages are a failure (scripts/setup.sh installs them).
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIPPED: Slurm cannot start on this machine: $*" >&2; exit 77; }
cd "$TRNSIM_SOURCE_DIR"
for tool in munged slurmctld slurmd sbatch squeue sinfo scancel scontrol; do
  command -v "$tool" >/dev/null || [[ -x /usr/sbin/$tool ]] ||
    fail "$tool not found: run scripts/setup.sh (Debian packages slurm-wlm, munge)"
done
export PATH="$PATH:/usr/sbin"

tmp=$(mktemp -d /tmp/trnsim-slurm.XXXXXX)
chmod 755 "$tmp"  # munged checks that its folders are not writable by others
pids=()
stop_daemons() {  # by pid, newest first; SIGKILL only for one that ignores SIGTERM for 5 s
  if [[ -n ${job:-} ]]; then scancel "$job" 2>/dev/null || true; job=""; fi
  for ((k = ${#pids[@]} - 1; k >= 0; k--)); do kill "${pids[k]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
    wait "$pid" 2>/dev/null || true
  done
}
on_exit() {
  local rc=$?
  stop_daemons
  rm -rf "$tmp"
  exit "$rc"
}
trap on_exit EXIT

free_port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
logs() { for f in "$tmp"/*.log; do echo "--- $f"; tail -n 15 "$f"; done >&2; }

# munge: a private key and socket.
mkdir -m 755 "$tmp/munge"  # the socket folder must be searchable by all
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.sock" \
  --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" --log-file="$tmp/munged.log" \
  --num-threads=2 >"$tmp/munged.stdout.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -S $tmp/munge/munge.sock ]] && break; sleep 0.1; done
[[ -S $tmp/munge/munge.sock ]] || { logs; skip "munged did not create its socket"; }

# Slurm: one node (this machine as 127.0.0.1), one partition, no accounting, no cgroups.
node=$(hostname -s)
cpus=$(nproc)
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/out"
cat > "$tmp/slurm.conf" <<CONF
ClusterName=trnsimtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=trnsim Nodes=$node Default=YES MaxTime=10 State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.stdout.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$tmp/slurmd.stdout.log" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 150); do
  state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
  [[ $state == idle ]] && break
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { logs; skip "a daemon (pid $pid) exited"; }; done
  sleep 0.2
done
[[ $state == idle ]] || { logs; skip "the node did not become idle within 30 s (state '$state')"; }

# The single-machine reference, then the same sweep as a 4-task array.
sweep=examples/sweeps/gpt-oss-batch-tp.json
"$TRNSIM" sweep "$sweep" --jobs 2 --no-progress > "$tmp/single.jsonl"
job=$(sbatch --parsable --array=0-3 --chdir="$TRNSIM_SOURCE_DIR" --output="$tmp/task-%A_%a.log" \
  --export="ALL,TRNSIM=$TRNSIM" examples/slurm/sweep.sbatch "$sweep" "$tmp/out") || { logs; fail "sbatch"; }
job=${job%%;*}
echo "submitted job array $job (4 tasks) to the private Slurm on $node"
for _ in $(seq 600); do
  [[ -z $(squeue -h -j "$job" 2>/dev/null) ]] && break
  sleep 0.2
done
[[ -z $(squeue -h -j "$job" 2>/dev/null) ]] || { squeue -j "$job" >&2; logs; fail "the array did not finish within 120 s"; }
for k in 0 1 2 3; do
  st=$(scontrol -o show job "${job}_$k" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || true)
  [[ $st == JobState=COMPLETED ]] || { cat "$tmp"/task-*.log >&2 || true; logs; fail "task $k: ${st:-no record}"; }
done
job=""
ls "$tmp/out" | grep -qx 'shard-00003-of-00004.jsonl' || fail "no shard 3 of 4 written"

python3 examples/slurm/merge.py "$tmp/out" --jsonl "$tmp/merged.jsonl" --csv "$tmp/merged.csv"
cmp "$tmp/merged.jsonl" "$tmp/single.jsonl" || fail "the merged shards differ from the single-machine run"
python3 examples/slurm/merge.py "$tmp/single.jsonl" --csv "$tmp/single.csv"
cmp "$tmp/merged.csv" "$tmp/single.csv" || fail "the merged CSV differs from the single-machine run's"
[[ $(wc -l < "$tmp/merged.csv") == $(( $(wc -l < "$tmp/single.jsonl") + 1 )) ]] || fail "CSV: one row per point"
head -1 "$tmp/merged.csv" | grep -q '^index,point.system,point.workload.parallelism.tp,point.workload.inference.batch,ok,' \
  || fail "CSV header"

# An incomplete set is refused: without shard 2 the merge names it and exits 2.
rm "$tmp/out/shard-00002-of-00004.jsonl"
rc=0
python3 examples/slurm/merge.py "$tmp/out" > /dev/null 2> "$tmp/merge.err" || rc=$?
[[ $rc == 2 ]] && grep -q "shard(s) 2 of 4 missing" "$tmp/merge.err" || fail "merge of an incomplete set: exit $rc"

# A capacity plan as a 3-task array (examples/slurm/capacity.sbatch), merged by
# `trnsim capacity --merge`: the same plan as one machine's.
cat > "$tmp/plan.json" <<'JSON'
{"version": 1, "system": "trn2-48xlarge", "compare_system": "",
 "workload": {"model": "Llama-3.1-8B", "inference": {"input_tokens": 1000, "output_tokens": 100}, "stack": "plain"},
 "serve": {"arrivals": "poisson", "rate": 20, "requests": 80, "targets": {"ttft_s": 0.5, "tpot_s": 0.02, "fraction": 0.9}},
 "capacity": {"systems": "trn2-48xlarge", "tp": [1, 2, 4], "batch_slots": [4, 32], "schedulers": "chunked, prefill_first",
              "max_chips": 16}}
JSON
"$TRNSIM" capacity "$tmp/plan.json" --json > "$tmp/plan.single.json"
job=$(sbatch --parsable --array=0-2 --chdir="$TRNSIM_SOURCE_DIR" --output="$tmp/cap-%A_%a.log" \
  --export="ALL,TRNSIM=$TRNSIM" examples/slurm/capacity.sbatch "$tmp/plan.json" "$tmp/cap") || { logs; fail "sbatch capacity"; }
job=${job%%;*}
for _ in $(seq 600); do
  [[ -z $(squeue -h -j "$job" 2>/dev/null) ]] && break
  sleep 0.2
done
[[ -z $(squeue -h -j "$job" 2>/dev/null) ]] || { squeue -j "$job" >&2; logs; fail "the capacity array did not finish within 120 s"; }
for k in 0 1 2; do
  st=$(scontrol -o show job "${job}_$k" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || true)
  [[ $st == JobState=COMPLETED ]] || { cat "$tmp"/cap-*.log >&2 || true; logs; fail "capacity task $k: ${st:-no record}"; }
done
job=""
cat "$tmp"/cap/shard-*-of-00003.jsonl > "$tmp/plan.jsonl"
"$TRNSIM" capacity "$tmp/plan.json" --merge "$tmp/plan.jsonl" --json > "$tmp/plan.merged.json"
cmp "$tmp/plan.merged.json" "$tmp/plan.single.json" || fail "the merged capacity shards differ from the single-machine plan"

# Stop the daemons now (the exit trap would too) and check that none is left running.
points=$(wc -l < "$tmp/single.jsonl")
stop_daemons
for pid in "${pids[@]}"; do
  if kill -0 "$pid" 2>/dev/null; then fail "daemon $pid still running after the test"; fi
done
echo "test_slurm: ok ($points points in 4 shards on $(sinfo -V 2>/dev/null || echo Slurm), merged = single-machine run)"
