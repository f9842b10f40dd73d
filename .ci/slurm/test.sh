#!/usr/bin/env bash
# test.sh: runs figures.sbatch on a one-node Slurm cluster started on this
# machine, and checks that the figures it plots are byte-identical to those
# of one local process running the same sweep. Run it as `make test-slurm`.
#
# It needs root: it installs Debian's slurm-wlm, munge and jq when they are
# missing, and starts munged, slurmctld and slurmd as root with every file
# (key, slurm.conf, state, spool, logs) in a temporary directory. Nothing is
# left behind: an exit trap cancels the jobs, stops the daemons it started and
# removes the directory, whether the test passed or not.
#
# Settings: FIGS (the figures of the quick sweep), TASKS (array tasks),
# KEEP=1 (keep the temporary directory for inspection).
set -euo pipefail
cd "$(dirname "$0")/../.."

figs=${FIGS:-fig2-ucb-d-K,fig6-network-size}
tasks=${TASKS:-4}
args="-quick -only $figs"
export GOAMD64=${GOAMD64:-v1} GOFLAGS=${GOFLAGS:--buildvcs=false}

failed=""
fail() {
	failed=1
	echo "test-slurm: FAIL: $*"
	exit 1
}

((EUID == 0)) || fail "needs root (to install packages and run the Slurm daemons)"
need=()
command -v slurmctld >/dev/null || need+=(slurm-wlm)
command -v munged >/dev/null || need+=(munge)
command -v jq >/dev/null || need+=(jq)
if ((${#need[@]})); then
	echo "installing ${need[*]}"
	lock=(-o DPkg::Lock::Timeout=300) # wait for another apt-get rather than fail
	apt-get "${lock[@]}" update -qq
	DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

tmp=$(mktemp -d /tmp/nadb-slurm.XXXXXX)
chmod 755 "$tmp" # munged wants every directory above its socket searchable by all
pids=()
export SLURM_CONF=$tmp/slurm.conf

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	if ((rc != 0)); then
		for f in "$tmp"/work/slurm-*.out "$tmp"/log/*.log; do
			[[ -f $f ]] && { echo "--- $f (last lines)"; tail -n 15 "$f"; }
		done
		[[ -n $failed ]] || echo "test-slurm: FAIL: exit status $rc"
	fi
	if [[ -f $SLURM_CONF ]] && squeue -h >/dev/null 2>&1; then
		scancel --full --user=root 2>/dev/null || true
		for _ in $(seq 20); do
			[[ -z $(squeue -h 2>/dev/null) ]] && break
			sleep 0.5
		done
	fi
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	if [[ -n ${KEEP:-} ]]; then
		echo "kept $tmp"
	else
		rm -rf "$tmp"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# free_port N: the first TCP port from N on that nothing listens to on loopback.
free_port() {
	local p=$1
	while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
	echo "$p"
}

# munge: a fresh key, a private socket.
mkdir -p "$tmp"/munge "$tmp"/state "$tmp"/spool "$tmp"/log "$tmp"/work
head -c 1024 /dev/urandom >"$tmp"/munge/munge.key
chmod 400 "$tmp"/munge/munge.key
sock=$tmp/munge/munge.socket
munged -F --key-file="$tmp"/munge/munge.key --socket="$sock" \
	--pid-file="$tmp"/munge/munged.pid --log-file="$tmp"/log/munged.log \
	--seed-file="$tmp"/munge/munged.seed >"$tmp"/log/munged.out 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -S $sock ]] && break; sleep 0.1; done
[[ -S $sock ]] || fail "munged did not start: $(cat "$tmp"/log/munged.out)"

# slurm.conf: one node (this host, 2 CPUs), no cgroups, no accounting.
host=$(uname -n)
host=${host%%.*}
mem=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
ctld_port=$(free_port 16817)
d_port=$(free_port $((ctld_port + 1)))
cat >"$SLURM_CONF" <<EOF
ClusterName=nadbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -f "$SLURM_CONF" >"$tmp"/log/slurmctld.out 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$tmp"/log/slurmd.out 2>&1 &
pids+=($!)
state=""
for _ in $(seq 60); do
	state=$(sinfo -h -n "$host" -o %t 2>/dev/null || true)
	[[ $state == idle ]] && break
	sleep 1
done
[[ $state == idle ]] || fail "node $host is '${state:-not known}' after 60 s, not idle"
echo "one-node cluster up: $host, slurmctld on port $ctld_port"

go build -o "$tmp"/nadb ./cmd/nadb
echo "sweep: nadb figures $args, as $tasks array tasks"

# The two commands of figures.sbatch's header, with the test's settings.
export NADB=$tmp/nadb NADB_CACHE=$tmp/cache NADB_OUT=$tmp/slurm-out NADB_ARGS=$args
recipe=$PWD/.ci/slurm/figures.sbatch
start=$SECONDS
array=$(cd "$tmp"/work && sbatch --parsable --array=1-"$tasks" --cpus-per-task=1 "$recipe")
merge=$(cd "$tmp"/work && sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes --cpus-per-task=2 "$recipe")
while [[ -n $(squeue -h -j "$array,$merge" -t PD,CF,R,CG,S 2>/dev/null) ]]; do
	((SECONDS - start < 600)) || fail "jobs not finished after 600 s: $(squeue)"
	sleep 1
done
echo "array job $array and merge job $merge finished in $((SECONDS - start)) s"

for j in "$array" "$merge"; do
	states=$(scontrol -o show job "$j" | awk '{
		id = ""; st = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^(JobId|ArrayTaskId)=/) id = id " " $i
			if ($i ~ /^JobState=/) st = $i
		}
		print id, st
	}')
	[[ -n $states ]] || fail "scontrol knows no job $j"
	if grep -v 'JobState=COMPLETED$' <<<"$states"; then fail "job $j did not complete"; fi
done
for i in $(seq "$tasks"); do
	grep -q "^shard $i/$tasks done" "$tmp"/work/slurm-"$array"_"$i".out || fail "slurm-${array}_$i.out does not say shard $i/$tasks done"
done
# The merge job only plots: its log names no run it executed.
if grep -E '^[0-9]+/[0-9]+ ' "$tmp"/work/slurm-"$merge".out; then
	fail "the merge job executed runs that the array should have done"
fi

echo "reference: one local process"
"$tmp"/nadb figures $args -cache "$tmp"/local-cache -out "$tmp"/local-out >/dev/null 2>"$tmp"/log/local.err ||
	fail "local run: $(cat "$tmp"/log/local.err)"

keys() { (cd "$1" && find . -type f | sort); }
diff <(keys "$tmp"/local-cache) <(keys "$tmp"/cache) || fail "the shards cached other runs than the local run"
diff <(keys "$tmp"/local-out) <(keys "$tmp"/slurm-out) || fail "the merge job wrote other files than the local run"
IFS=, read -r -a ids <<<"$figs"
for id in "${ids[@]}"; do
	[[ -s $tmp/slurm-out/$id.csv ]] || fail "no $id.csv"
	ls "$tmp"/slurm-out/"$id".{png,svg,pdf} >/dev/null 2>&1 || fail "no picture of $id"
done
n=0
while IFS= read -r f; do
	a=$tmp/local-out/$f b=$tmp/slurm-out/$f
	case $f in
	*.manifest.json)
		# Manifests record each run's wall time (wall_s) and their sum
		# (total_wall_s), which differ between any two runs: compare the rest.
		filter='del(.. | .wall_s?, .total_wall_s?)'
		cmp -s <(jq -S "$filter" "$a") <(jq -S "$filter" "$b") || fail "$f differs beyond wall times"
		;;
	*) cmp "$a" "$b" || fail "$f differs" ;;
	esac
	n=$((n + 1))
done < <(keys "$tmp"/local-out)
echo "test-slurm: PASS: $tasks array tasks ran $(keys "$tmp"/cache | wc -l) runs, the merge job plotted $n files byte-identical to a local run"
