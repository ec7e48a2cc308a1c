#!/usr/bin/env bash
# A job across hosts, and its faults, on three hosts made on this machine by
# scripts/netns_hosts.sh (network namespaces joined by virtual ethernet links; Open MPI over
# TCP, launched through the namespaces in place of ssh):
#   1. a class sweep and a partitioned bdd run on 3 hosts: the run digest equals one process's;
#   2. a class sweep whose third host's processes are killed mid-job: the job ends with a
#      failure, rank 0's checkpoint keeps what it received, and --resume on the two other hosts
#      finishes with the digest of one process;
#   3. the same with the third host's link taken down mid-job: rank 0 notices the silent rank
#      (--rank-timeout 5) and ends the job (MPI_Abort), and --resume on two hosts finishes
#      likewise.
# Prints one line per check; exit 0 if all hold, 1 if one does not, 3 if this machine cannot
# make hosts (not root, no network namespaces, no Open MPI), with the reason.
#   bash scripts/netns_job_check.sh [BINARY]      (default build/rushhour)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(realpath "${1:-build/rushhour}")
hosts() { bash scripts/netns_hosts.sh "$@"; }
hosts check || exit 3
command -v mpirun >/dev/null || { echo "netns_job_check.sh: needs Open MPI (mpirun)" >&2; exit 3; }
"$binary" --version | grep -q "with MPI" || { echo "netns_job_check.sh: $binary is built without MPI" >&2; exit 3; }
work=$(mktemp -d /tmp/rh-netns.XXXXXX)
trap 'hosts down; rm -rf "$work"' EXIT
hosts up 3

failed=0
say() { echo "$1 $2"; [[ $1 == ok ]] || failed=1; }
digest_of() { grep -o 'run digest [0-9a-f]*' "$1" | awk '{print $3}'; }

# 1. Figures across hosts.
sweep=(classify --size 5 --engine classes --threads 1 -q)
"$binary" "${sweep[@]}" > "$work/sweep-one.out"
hosts mpirun 3 "$binary" "${sweep[@]}" --out "$work/sweep" > "$work/sweep-hosts.out"
[[ $(digest_of "$work/sweep-one.out") == "$(digest_of "$work/sweep-hosts.out")" ]] &&
  say ok "class sweep on 3 hosts: run digest $(digest_of "$work/sweep-hosts.out"), as one process's" ||
  say FAIL "class sweep on 3 hosts: digest $(digest_of "$work/sweep-hosts.out"), one process $(digest_of "$work/sweep-one.out")"
parts=(classify --size 5 --partition rows --no-dominance -q)
"$binary" "${parts[@]}" > "$work/parts-one.out"
hosts mpirun 3 "$binary" "${parts[@]}" --out "$work/parts" > "$work/parts-hosts.out"
[[ $(digest_of "$work/parts-one.out") == "$(digest_of "$work/parts-hosts.out")" ]] &&
  say ok "partitioned bdd run on 3 hosts: run digest $(digest_of "$work/parts-hosts.out"), as one process's" ||
  say FAIL "partitioned bdd run on 3 hosts: digest $(digest_of "$work/parts-hosts.out"), one process $(digest_of "$work/parts-one.out")"

# 2 and 3. A longer sweep, a fault on the third host once rank 0 has checkpointed some items.
long=(classify --size 6 --engine classes --max-vehicles 6 --threads 1 -q --checkpoint-seconds 1)
"$binary" "${long[@]}" > "$work/long-one.out"
expected=$(digest_of "$work/long-one.out")

checkpointed_items() {  # the checkpoint's finished items so far, 0 without one
  local file=$1/classes-checkpoint.txt
  [[ -f $file ]] && awk '$1 == "next_item" {print $2}' "$file" || echo 0
}

fault() {  # NAME ACTION: run on 3 hosts, ACTION on the third once items are checkpointed
  local name=$1 action=$2 dir=$work/$1
  hosts mpirun 3 "$binary" "${long[@]}" --rank-timeout 5 --out "$dir" > "$dir.out" 2> "$dir.err" &
  local job=$!
  for _ in $(seq 1 600); do
    (($(checkpointed_items "$dir") > 0)) && break
    sleep 0.1
  done
  local before
  before=$(checkpointed_items "$dir")
  case $action in
    kill) kill -9 $(ip netns pids rh-h3) 2>/dev/null || true ;;
    link) hosts link rh-h3 down ;;
  esac
  local status=0 start=$SECONDS
  wait $job || status=$?
  local after
  after=$(checkpointed_items "$dir")
  local noticed=yes
  [[ $action == link ]] && ! grep -q "not heard from" "$dir.err" && noticed=no
  if ((status != 0 && after >= before && before > 0)) && [[ $noticed == yes ]]; then
    say ok "$name: the job ended with exit $status $((SECONDS - start)) s after the fault; the checkpoint holds every item before $after ($before when the fault came)"
  else
    say FAIL "$name: exit $status, checkpoint at item $before before the fault, $after after, rank 0 noticed the silence: $noticed"
  fi
  [[ $action == link ]] && hosts link rh-h3 up
  hosts mpirun 2 "$binary" "${long[@]}" --out "$dir" --resume > "$dir-resumed.out" 2> "$dir-resumed.err" || true
  [[ $(digest_of "$dir-resumed.out") == "$expected" ]] &&
    say ok "$name: --resume on 2 hosts gives run digest $expected, as one process's" ||
    say FAIL "$name: --resume on 2 hosts gives digest '$(digest_of "$dir-resumed.out")', one process $expected ($(tail -1 "$dir-resumed.err"))"
}
fault host-killed kill
fault link-down link
exit $failed
