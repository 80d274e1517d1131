# Sourced by the farm tests (run_test.sh, bake_tasks_test.sh): starts a
# private one-node Slurm cluster on localhost (munged with a fresh key,
# slurmctld and slurmd with a generated slurm.conf: this machine as a node of
# 2 CPUs, free ports), all in a temporary folder, through SLURM_CONF; no system
# Slurm is touched. On exit it cancels the jobs left on that cluster and stops
# the daemons it started, by pid.
# Needs: $work (the test's folder, the current one), say and fail.
# shellcheck shell=bash
: "${work:?set by the script that sources this}"
# Daemon state and sockets in a short /tmp path (a unix socket path has at most 107 bytes).
slurm=$(mktemp -d /tmp/plume-slurm.XXXXXX)
pids=()
cleanup() {
  set +e
  if [[ -n ${SLURM_CONF:-} ]]; then
    scancel --quiet --user "$(id -un)" 2>/dev/null
    for _ in $(seq 1 20); do [[ -z $(squeue -h 2>/dev/null) ]] && break; sleep 0.5; done
  fi
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  rm -rf "$slurm"
}
trap cleanup EXIT

# Two free TCP ports on localhost for slurmctld and slurmd.
free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 30000))
    (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
  done
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [[ $slurmd_port == "$ctld_port" ]]; do slurmd_port=$(free_port); done

# munged with a test key.
mkdir -p "$slurm/state" "$slurm/spool"
head -c 1024 /dev/urandom >"$slurm/munge.key"
chmod 600 "$slurm/munge.key"
munged -F -f --socket="$slurm/munge.sock" --key-file="$slurm/munge.key" \
  --pid-file="$slurm/munged.pid" --seed-file="$slurm/munged.seed" \
  --log-file="$slurm/munged.log" >"$work/munged.log" 2>&1 &
pids+=($!)

host=$(hostname -s)
user=$(id -un)
cat >"$slurm/slurm.conf" <<CONF
# A private one-node cluster for tests/farm; nothing here outlives the test.
ClusterName=plumetest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$slurm/munge.sock
SlurmUser=$user
SlurmdUser=$user
StateSaveLocation=$slurm/state
SlurmdSpoolDir=$slurm/spool
SlurmctldPidFile=$slurm/slurmctld.pid
SlurmdPidFile=$slurm/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
# Dependent jobs start as soon as the job before them ends, not at the next
# 3 s batch pass (Slurm's batch_sched_delay): the test's chain of a dozen jobs.
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# Finished jobs stay visible to scontrol for the checks below.
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=2000 State=UNKNOWN
PartitionName=farm Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$slurm/slurm.conf
for _ in $(seq 1 50); do [[ -S $slurm/munge.sock ]] && break; sleep 0.1; done
[[ -S $slurm/munge.sock ]] || fail "munged did not start: $(cat "$work/munged.log")"
slurmctld -D >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D >"$work/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 60); do
  [[ $(sinfo -h -o %T 2>/dev/null) == idle ]] && break
  sleep 0.5
done
[[ $(sinfo -h -o %T 2>/dev/null) == idle ]] ||
  fail "the node did not come up: $(tail -n 5 "$work/slurmctld.log" "$work/slurmd.log" 2>&1)"
say "$(slurmctld -V) cluster up: node $host, 2 CPUs, ports $ctld_port/$slurmd_port"
