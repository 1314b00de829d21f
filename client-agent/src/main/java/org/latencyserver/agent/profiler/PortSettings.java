package org.latencyserver.agent.profiler;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@code profile measure --peer REF --port-loads ...} measures: port cells against a peer agent
 * on another host, across the switch port between them.
 *
 * @param out               the profile file to write
 * @param name              the profile's name
 * @param cpuCellsFrom      the profile whose CPU state pair cells the written profile carries
 * @param peerReference     the peer agent as given (for the provenance)
 * @param sizesBytes        message sizes, ascending
 * @param roundTrips        per (load, size)
 * @param warmupRoundTrips  discarded before each (load, size)
 * @param minIntervalMicros round trips never start closer than this
 * @param jitWarmupSeconds  paced, unrecorded round trips before the first load
 * @param loads             the port loads, with their bands
 * @param portAgent         the switch's SNMP agent, {@code udp:HOST/PORT}
 * @param portIfIndex       the port's ifIndex there
 * @param portSpeedMbps     the port's speed, Mbit/s
 * @param community         the v2c community of the agents
 * @param peerAgent         the peer host's SNMP agent for its CPU, or null (then the peer's CPU is not checked)
 * @param loadTarget        the iperf3 server behind the port, {@code ADDR[:PORT]}, or null when no load above 0 is asked
 * @param sharePercent      the most of the port's speed the round trips may take
 * @param checkSeconds      the utilisation check's window, seconds (several counter refreshes)
 * @param tolerancePoints   how far the achieved utilisation may be from the load
 * @param traffic           the cross-traffic's shape while the port is driven
 */
record PortSettings(Path out, String name, Path cpuCellsFrom, String peerReference, List<Integer> sizesBytes, int roundTrips,
                    int warmupRoundTrips, int minIntervalMicros, int jitWarmupSeconds, PortLoads loads, String portAgent,
                    int portIfIndex, double portSpeedMbps, String community, String peerAgent, String loadTarget,
                    double sharePercent, int checkSeconds, double tolerancePoints, PortTraffic traffic) {
}
