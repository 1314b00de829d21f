#!/bin/bash
# one-switch testbed: p96 of a 256 B round trip at 95 % port load under smooth and bursty cross-traffic
set -u
cd "$(dirname "$(readlink -f "$0")")/../.."   # the checkout
export LATENCY_NO_BUILD=1
D=${OUT:-/tmp/port-traffic}; mkdir -p $D
# the topology: examples/testbed/one-switch.yaml renamed (name: pth1) so as not to meet another testbed
sed "s/^name: one$/name: pth1/" examples/testbed/one-switch.yaml > $D/one.yaml
./latency testbed up --topology $D/one.yaml || exit 1
ST=.latency/testbed/pth1/status.json
./latency testbed exec ws2 -- ./latency peer-agent --name ws2 --host 198.18.0.3 --ior-file $D/peer2.ior > $D/peer2.log 2>&1 &
./latency testbed exec ws2 -- iperf3 -s -B 198.18.0.3 > $D/iperf2-s.log 2>&1 &
for i in $(seq 1 60); do [ -s $D/peer2.ior ] && break; sleep 1; done
export LATENCY_SNMP_COMMUNITY=$(jq -r .snmp.community $ST)
for shape in ${SHAPES:-smooth bursty:16 bursty:32 smooth bursty:16 bursty:32}; do
  echo "=== $shape  $(date -u +%T)  loadavg: $(cat /proc/loadavg)"
  ip netns exec lt-pth1-sw1 tc -s qdisc show dev p-ws2 | grep -E "Sent|dropped"
  ./latency testbed exec ws1 -- ./latency profile measure --peer $D/peer2.ior \
    --cpu-cells-from profiles/measured-loopback-jacorb.json --port-loads ${LOADS:-95} --sizes 256 \
    --round-trips 500 --jit-warmup-seconds 5 --port-snmp udp:198.18.0.254/161 --port-if-index 5 --port-speed-mbps 20 \
    --port-load-target 198.18.0.3 --peer-snmp udp:198.18.0.3/161 --port-traffic $shape --port-tolerance ${TOLERANCE:-6} \
    --out $D/port2-${shape%%:*}-$RANDOM.json 2>&1 | grep -v "^warming"
  ip netns exec lt-pth1-sw1 tc -s qdisc show dev p-ws2 | grep -E "Sent|dropped"
  echo "=== end $shape $(date -u +%T) loadavg: $(cat /proc/loadavg)"
done
./latency testbed down --name pth1
