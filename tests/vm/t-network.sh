#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel
# A wait for the network: a client reads the answer of a TCP server in
# another network namespace, across a veth pair (10.0.0.2 here, 10.0.0.1
# there; tests/vm/progs/netpeer.c).  A slow local peer: the server sleeps
# 300 ms before it answers (timer, culprit the server, the chain through
# the client's socket), or computes 300 ms (running, the server); a
# delayed link: the server answers at once and netem on its side of the
# pair holds the answer 300 ms (network, no culprit, the client's socket
# tcp 10.0.0.2:PORT -> 10.0.0.1:5000 the resource), within 10% of the
# wait the client measured; the server's part at least 90% of its 300 ms
# and at most 110% of the time it took to answer; >= 95% accounted
# (tests/vm/check_report.py).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
ns=tipme-peer
kv() { printf '%s\n' "$1" | sed -n "s/.*\b$2=\([^ ]*\).*/\1/p"; }
sec() {
	[[ $1 =~ ^[0-9]+$ ]] || return 1
	printf '%d.%09d\n' $((10#$1 / 1000000000)) $((10#$1 % 1000000000))
}

tap_check "insmod" insmod module/tipme.ko buffer_size=32M || tap_done
modprobe veth
modprobe sch_netem
if ! ip netns add $ns || ! ip link add tm-a type veth peer name tm-b ||
	! ip link set tm-b netns $ns || ! ip addr add 10.0.0.2/24 dev tm-a ||
	! ip link set tm-a up || ! ip -n $ns addr add 10.0.0.1/24 dev tm-b ||
	! ip -n $ns link set tm-b up || ! ip -n $ns link set lo up; then
	tap_fail "a veth pair into network namespace $ns"
	tap_done
fi

# run NAME MODE [MS] -- CHECK EXTRA...: the workload, a dump, the report
# and its check on the host
run() {
	local name=$1 mode=$2 ms=$3 t
	shift 4
	t=$("$B"/tests/vm/netpeer /run/netns/$ns 10.0.0.1 "$mode" $ms)
	tap_check "$name: the client had its answer" test -n "$t"
	tap_diag "$name: ground truth: $t"
	"$B"/tipme dump -o "$out/$name.dump" > /dev/null
	tap_on_host tests/vm/report_check.sh "$name" "$t" "$name" --pid "$(kv "$t" client)" \
		--from "$(sec "$(kv "$t" start_ns)")" --to "$(sec "$(kv "$t" woke_ns)")" \
		-- "$@"
}

run net-peer sleep 300 -- 10.0.0.2 300
run net-spin spin 300 -- 10.0.0.2 300
tap_check "netem: 300 ms on the server's side" \
	ip netns exec $ns tc qdisc add dev tm-b root netem delay 300ms
run net-link now "" -- 10.0.0.2 300

ip link del tm-a
ip netns del $ns
tap_check "rmmod" rmmod tipme
tap_done
