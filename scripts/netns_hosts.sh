#!/usr/bin/env bash
# Hosts on one machine for a job across hosts: network namespaces rh-h1..rh-hN, each with its
# own address (10.77.0.K/24 on its eth0), its own host name (rh-hK, set in a UTS namespace of
# each process started there) and an /etc/hosts naming all of them, joined by virtual ethernet
# links to a bridge in a namespace of its own (rh-switch). Open MPI runs across them over TCP,
# with this script as its launcher agent (in place of ssh). Needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN)
# and iproute2; the file system is shared, as a cluster's shared file system would be.
#
#   bash scripts/netns_hosts.sh up N            make N hosts (removes earlier ones)
#   bash scripts/netns_hosts.sh down            remove them
#   bash scripts/netns_hosts.sh exec HOST CMD…  run CMD on HOST (rh-hK); the agent Open MPI calls
#   bash scripts/netns_hosts.sh mpirun NP ARGS… mpirun on rh-h1 with NP ranks, one host after the
#                                               other (--map-by node), over TCP only
#   bash scripts/netns_hosts.sh link HOST down|up   take HOST's link down (its cable pulled) or up
#   bash scripts/netns_hosts.sh check           exit 0 if this machine can make hosts, else 3
#                                               with the reason
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prefix=rh-h
switch=rh-switch
subnet=10.77.0

hosts() { ip netns list | awk '{print $1}' | grep "^$prefix[0-9]*$" | sort -V || true; }

down() {
  for host in $(hosts); do ip netns del "$host"; rm -rf "/etc/netns/$host"; done
  if ip netns list | grep -q "^$switch\b"; then ip netns del "$switch"; fi
}

up() {
  local count=$1
  down
  ip netns add "$switch"
  ip -n "$switch" link add br0 type bridge
  ip -n "$switch" link set br0 up
  for k in $(seq 1 "$count"); do
    local host=$prefix$k
    ip netns add "$host"
    ip link add "rh-veth$k" type veth peer name "rh-port$k"
    ip link set "rh-veth$k" netns "$host"
    ip link set "rh-port$k" netns "$switch"
    ip -n "$host" link set "rh-veth$k" name eth0
    ip -n "$host" addr add "$subnet.$k/24" dev eth0
    ip -n "$host" link set eth0 up
    ip -n "$host" link set lo up
    # A connection whose peer stopped answering fails after about 3 s of retransmissions (Linux's
    # default is about 15 minutes), so that mpirun learns of a lost host soon.
    ip netns exec "$host" sysctl -qw net.ipv4.tcp_retries2=3
    ip -n "$switch" link set "rh-port$k" master br0
    ip -n "$switch" link set "rh-port$k" up
  done
  for k in $(seq 1 "$count"); do
    mkdir -p "/etc/netns/$prefix$k"
    { echo "127.0.0.1 localhost"; for j in $(seq 1 "$count"); do echo "$subnet.$j $prefix$j"; done; } \
      > "/etc/netns/$prefix$k/hosts"
  done
}

# CMD on HOST: its network namespace (ip netns exec also mounts /etc/netns/HOST/hosts over
# /etc/hosts) and a UTS namespace with the host's name, so that Open MPI sees one node per host.
on_host() {
  local host=$1; shift
  ip netns exec "$host" unshare --uts /bin/sh -c 'hostname "$0" && exec "$@"' "$host" "$@"
}

case "${1:-}" in
  up) up "${2:?how many hosts}" ;;
  down) down ;;
  exec)
    # Open MPI's rsh launcher calls the agent as `AGENT HOST COMMAND-STRING` (ssh's form).
    host=$2; shift 2
    on_host "$host" /bin/sh -c "$*" ;;
  mpirun)
    np=$2; shift 2
    count=$(hosts | wc -l)
    ((count > 0)) || { echo "netns_hosts.sh: no hosts (run: netns_hosts.sh up N)" >&2; exit 2; }
    hostfile=$(mktemp)
    trap 'rm -f "$hostfile"' EXIT
    for host in $(hosts); do echo "$host slots=64"; done > "$hostfile"
    on_host "${prefix}1" mpirun --allow-run-as-root --oversubscribe -np "$np" --hostfile "$hostfile" \
      --map-by node --mca plm_rsh_agent "$here/netns_hosts.sh exec" \
      --mca btl tcp,self --mca btl_tcp_if_include eth0 --mca oob_tcp_if_include eth0 \
      --mca oob_tcp_keepalive_time 30 --mca oob_tcp_keepalive_intvl 5 --mca oob_tcp_keepalive_probes 3 \
      -x OMPI_MCA_rmaps_base_oversubscribe=1 "$@" ;;
  link)
    k=${2#"$prefix"}
    ip -n "$switch" link set "rh-port$k" "${3:?down or up}" ;;
  check)
    [[ $(id -u) -eq 0 ]] || { echo "netns_hosts.sh: needs root for network namespaces" >&2; exit 3; }
    command -v ip >/dev/null || { echo "netns_hosts.sh: needs iproute2 (ip)" >&2; exit 3; }
    ip netns add rh-probe 2>/dev/null || { echo "netns_hosts.sh: this machine does not allow network namespaces" >&2; exit 3; }
    ip netns del rh-probe ;;
  *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
