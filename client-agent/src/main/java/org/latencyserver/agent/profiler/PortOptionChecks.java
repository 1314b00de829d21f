package org.latencyserver.agent.profiler;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Checks the options of a {@code profile measure --peer REF --port-loads LIST} run and makes its {@link PortSettings}:
 * what a port run cannot do, the options it needs, their ranges, the SNMP agents and the community's environment
 * variable. Each fault is an {@link IllegalArgumentException} naming the option, said as a usage fault.
 *
 * <p>Stateless; reads the parsed command on the caller's thread.
 */
final class PortOptionChecks {

    private PortOptionChecks() {
    }

    /**
     * The port settings the options give, or why they do not make a run.
     *
     * @param environment looks up the community's environment variable
     * @throws IllegalArgumentException the usage fault, naming the option
     */
    static PortSettings settings(final ProfilerMain.Measure measure, final Function<String, String> environment) {
        refuseWhatAPeerRunCannotDo(measure);
        final PortLoads loads = PortLoads.parse(measure.portLoads);
        requirePortOptions(measure, loads);
        checkPortValues(measure);
        SnmpReader.agent("--port-snmp", measure.portSnmp, "-");
        if (measure.peerSnmp != null) {
            SnmpReader.agent("--peer-snmp", measure.peerSnmp, "-");
        }
        final String community = environment.apply(measure.snmpCommunityEnv);
        if (community == null || community.isEmpty()) {
            throw new IllegalArgumentException("the SNMP community is read from the environment variable "
                + measure.snmpCommunityEnv + " (--snmp-community-env), which is not set");
        }
        return new PortSettings(measure.out.toAbsolutePath(), measure.profileName(), measure.cpuCellsFrom, measure.peer,
            measure.sizes.stream().sorted().toList(), measure.roundTrips, measure.warmup, measure.intervalMicros,
            measure.jitWarmupSeconds, loads, measure.portSnmp, measure.portIfIndex, measure.portSpeedMbps, community,
            measure.peerSnmp, measure.portLoadTarget, measure.portSharePercent, measure.portCheckSeconds, measure.portTolerance,
            PortTraffic.parse(measure.portTraffic));
    }

    /** A port run needs a peer and port loads, and measures neither CPU state pairs nor a resumed run. */
    private static void refuseWhatAPeerRunCannotDo(final ProfilerMain.Measure measure) {
        if (measure.peer == null) {
            throw new IllegalArgumentException("--port-loads needs --peer: a switch port lies between two hosts, and the peer"
                + " agent this command starts by itself is on this host (loopback has no port to load)");
        }
        if (measure.portLoads == null) {
            throw new IllegalArgumentException("--peer needs --peer-state STATE or --port-loads LIST: the profiler's load drivers"
                + " run on this host only and cannot drive or pin the peer host's CPU, so CPU cells against it are measured with"
                + " the peer host held in a state you assert (--peer-state LOW, MEDIUM or HIGH), and port cells"
                + " (--port-loads, e.g. 0,95,98,100) take their CPU cells from --cpu-cells-from");
        }
        if (!measure.pairs.isEmpty()) {
            throw new IllegalArgumentException("--pairs cannot be measured with --port-loads: a port run's CPU cells come from"
                + " --cpu-cells-from (CPU cells against a peer on another host are measured with --peer-state)");
        }
        if (measure.resume) {
            throw new IllegalArgumentException("--resume is for CPU state pairs; a --peer run measures its port loads afresh");
        }
    }

    /** Every option a port run needs is given, or the fault names all that are missing. */
    private static void requirePortOptions(final ProfilerMain.Measure measure, final PortLoads loads) {
        final List<String> missing = new ArrayList<>();
        if (measure.cpuCellsFrom == null) {
            missing.add("--cpu-cells-from FILE (the CPU state pair cells the profile carries)");
        }
        if (measure.portSnmp == null) {
            missing.add("--port-snmp udp:HOST/PORT (the switch's agent)");
        }
        if (measure.portIfIndex == null) {
            missing.add("--port-if-index N");
        }
        if (measure.portSpeedMbps == null) {
            missing.add("--port-speed-mbps MBPS");
        }
        if (measure.portLoadTarget == null && loads.percents().stream().anyMatch(p -> p > 0)) {
            missing.add("--port-load-target ADDR[:PORT] (an iperf3 -s behind the port, to drive it)");
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("--peer with --port-loads also needs " + String.join(", ", missing));
        }
    }

    /** The port run's numbers are in range and --port-load-target is ADDR or ADDR:PORT. */
    private static void checkPortValues(final ProfilerMain.Measure measure) {
        if (!(measure.portSpeedMbps > 0)) {
            throw new IllegalArgumentException("--port-speed-mbps must be > 0, was " + measure.portSpeedMbps);
        }
        if (measure.portIfIndex < 1) {
            throw new IllegalArgumentException("--port-if-index must be >= 1, was " + measure.portIfIndex);
        }
        if (!(measure.portSharePercent > 0 && measure.portSharePercent <= 20)) {
            throw new IllegalArgumentException("--port-share-percent must be in (0, 20], was " + measure.portSharePercent
                + " (the round trips load the very port they measure)");
        }
        if (measure.portCheckSeconds < 6) {
            throw new IllegalArgumentException("--port-check-seconds must be >= 6, was " + measure.portCheckSeconds
                + " (the check needs "
                + PortCounterWindow.MIN_CHANGES + " counter refreshes, and net-snmp refreshes them every ~3 s)");
        }
        if (!(measure.portTolerance > 0)) {
            throw new IllegalArgumentException("--port-tolerance must be > 0, was " + measure.portTolerance);
        }
        if (measure.roundTrips < 1 || measure.warmup < 0) {
            throw new IllegalArgumentException("--round-trips must be >= 1 and --warmup >= 0");
        }
        if (measure.portLoadTarget != null && !measure.portLoadTarget.matches("[^:\\s]+(:\\d{1,5})?")) {
            throw new IllegalArgumentException("--port-load-target: '" + measure.portLoadTarget + "' is not ADDR or ADDR:PORT");
        }
    }
}
