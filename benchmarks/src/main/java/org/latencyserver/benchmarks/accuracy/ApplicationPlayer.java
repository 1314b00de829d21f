package org.latencyserver.benchmarks.accuracy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import org.latencyserver.agent.load.CorePinning;
import org.latencyserver.agent.measure.CorbaRoundTrips;
import org.latencyserver.agent.measure.RoundTrip;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.demo.DemoReady;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateKind;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The application of the accuracy harness, in a JVM of its own on the client agent's core: for every
 * connection of a running demo, at exponentially spaced moments (all connections interleaved on
 * this one thread), it reads the connection's load state and current estimate, at once sends a
 * burst of round trips of the connection's message size to the connection's peer agent, reads the
 * load state again, and writes the lot as one {@link BurstRecord} line. It computes no statistics:
 * the harness does, from the file.
 *
 * <p>Why a JVM of its own: it must send from the core the client agent measures from (core 0 in
 * the demo, where lab1's load is driven), and the harness, which starts the demo, must not be pinned
 * (the demo's processes would inherit it). It pins itself once started, as the client agent does
 * ({@code --pin-core}): a JVM started under {@code taskset} sizes itself as a uniprocessor and its
 * round trips would not be comparable with the agent's ({@link CorePinning}).
 *
 * <p>Each burst plays one application shape of the plan ({@code --applications}, {@code --play}; {@link ShapePlan}):
 * its spacing, length and call (octets by {@code EchoPeer.echo}, arrays as the client agent sends), and its record
 * names the shape. The player's one thread owns every connection's counters.
 *
 * <p>{@value BurstRecord#FILE_NAME} is created when recording starts (after the warm-up), so the
 * harness can begin its own cost measurements at the same moment.
 */
@Command(name = "application-player", mixinStandardHelpOptions = true,
    description = "Play an application against a running demo and record each estimate read with the burst that followed it.")
public final class ApplicationPlayer implements Callable<Integer> {

    private static final int MAX_CONSECUTIVE_FAILURES = 20;
    /** A play this late (behind its due time) is reported at the end: the arrivals were no longer Poisson. */
    private static final long LATE_WARNING_NANOS = 1_000_000_000L;

    @Option(names = "--ready", required = true, paramLabel = "FILE", description = "The demo's ready file.")
    private Path readyFile;

    @Option(names = "--records", required = true, paramLabel = "FILE", description = "Where to write the burst records (JSON Lines).")
    private Path recordsFile;

    @Option(names = "--duration-seconds", description = "How long to record (default: ${DEFAULT-VALUE}).")
    private long durationSeconds = 660;

    @Option(names = "--burst-size", description = "Round trips per burst (default: ${DEFAULT-VALUE}).")
    private int burstSize = 50;

    @Mixin
    private PlayOptions play = new PlayOptions();

    /** The shapes played, set once before playing starts. */
    private ShapePlan plan;

    /**
     * @param args see {@code --help}
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new ApplicationPlayer()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final DemoReady ready = DemoReady.read(readyFile);
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
        try {
            final LatencyService server = LatencyServiceHelper.narrow(
                References.resolve(orb, ready.serverName(), ready.naming()));
            plan = play.plan(burstSize);
            System.out.println("application shapes: " + plan.label());
            plan.shapes().forEach(shape -> System.out.println("  " + shape.label()));
            final List<PlayedConnection> connections = connections(orb, server, ready);
            pinToClientCore(connections, ready);
            warmUp(connections);
            record(server, connections);
            return 0;
        } finally {
            orb.shutdown(false);
        }
    }

    private List<PlayedConnection> connections(final ORB orb, final LatencyService server, final DemoReady ready) {
        final List<PlayedConnection> connections = new ArrayList<>();
        for (final ConnectionInfo info : server.list_connections()) {
            if (!play.plays(info.index_ref)) {
                System.out.printf(Locale.ROOT, "connection %d: QoS %d: not played (--play-connections)%n", info.index_ref, info.quality);
                continue;
            }
            final boolean checkable = ready.clientAgentOf(info.client_node_name).isPresent()
                && ready.peerAgentOf(info.peer_node_name).isPresent();
            RoundTrip octets = null;
            RoundTrip arrays = null;
            if (checkable) {
                final String peerName = ready.peerAgentOf(info.peer_node_name).orElseThrow().name();
                final EchoPeer peer = EchoPeerHelper.narrow(References.resolve(orb, peerName, ready.naming()));
                octets = octets(peer, info.message_size_bytes);
                // as the client agent sends: fm1 arrays for the thesis's sizes, octets for any other size
                arrays = CorbaRoundTrips.to(peer, info.message_size_bytes);
            }
            final int longest = plan.shapes().stream().mapToInt(ApplicationShape::maxRoundTrips).max().orElseThrow();
            connections.add(new PlayedConnection(info, octets, arrays, new long[longest], new long[plan.shapes().size()]));
            System.out.printf(Locale.ROOT, "connection %d: QoS %d %s -> %s, %d B: %s%n", info.index_ref, info.quality,
                info.client_node_name, info.peer_node_name, info.message_size_bytes,
                checkable ? "played" : "reads only (no agents on its nodes: not checkable)");
        }
        return connections;
    }

    /** {@code EchoPeer.echo} with an octet sequence of the size: an application's own message. */
    private static RoundTrip octets(final EchoPeer peer, final int sizeBytes) {
        final byte[] payload = new byte[sizeBytes];
        for (int i = 0; i < sizeBytes; i++) {
            payload[i] = (byte) i;
        }
        return () -> peer.echo(payload);
    }

    /** On the core of the client agent of the played connections' client node, when the demo pinned it. */
    private static void pinToClientCore(final List<PlayedConnection> connections, final DemoReady ready)
        throws IOException, InterruptedException {
        final Integer core = connections.stream().filter(PlayedConnection::checkable).findFirst()
            .flatMap(connection -> ready.clientAgentOf(connection.info().client_node_name))
            .map(DemoReady.Agent::core).orElse(null);
        if (core == null) {
            System.out.println("not pinned: the demo's client agent is not pinned to a core");
            return;
        }
        CorePinning.pinThisProcess(core);
        System.out.println("pinned to core " + core + ", the client agent's");
    }

    private void warmUp(final List<PlayedConnection> connections) throws Exception {
        final long endNanos = System.nanoTime() + play.warmupSeconds() * 1_000_000_000L;
        final List<PlayedConnection> played = connections.stream().filter(PlayedConnection::checkable).toList();
        final boolean bothCalls = plan.shapes().stream().anyMatch(shape -> shape.random() || shape.cycle().size() > 1)
            || plan.shapes().stream().flatMap(shape -> shape.cycle().stream()).map(TrafficShape::call).distinct().count() > 1;
        final CallKind onlyCall = plan.shapes().get(0).random() ? CallKind.OCTETS : plan.shapes().get(0).cycle().get(0).call();
        int next = 0;
        while (!played.isEmpty() && System.nanoTime() - endNanos < 0) {
            final long startNanos = System.nanoTime();
            final int turn = next++;
            // every call the shapes use is warmed (its code paths, the peer's side too)
            final CallKind call = bothCalls ? CallKind.values()[(turn / played.size()) % 2] : onlyCall;
            played.get(turn % played.size()).roundTrip(call).once();
            parkUntil(startNanos + play.spacingMicros() * 1_000L);
        }
    }

    private void record(final LatencyService server, final List<PlayedConnection> connections) throws Exception {
        final SplittableRandom random = new SplittableRandom(play.seed);
        // its own generator, so the gaps are those of a run with one shape and the same seed
        final SplittableRandom shapeRandom = new SplittableRandom(play.seed).split();
        final long startNanos = System.nanoTime();
        final long endNanos = startNanos + durationSeconds * 1_000_000_000L;
        final long[] dueNanos = new long[connections.size()];
        for (int i = 0; i < dueNanos.length; i++) {
            dueNanos[i] = startNanos + gapNanos(random);
        }
        final ObjectMapper mapper = new ObjectMapper();
        int consecutiveFailures = 0;
        long written = 0;
        long maxLateNanos = 0;
        try (BufferedWriter out = Files.newBufferedWriter(recordsFile)) {
            while (true) {
                final int due = earliest(dueNanos);
                // Past the end either way: plays due before it but not yet started (the bursts took
                // longer than the gaps allow) are not played, so the run lasts what was asked.
                if (dueNanos[due] - endNanos >= 0 || System.nanoTime() - endNanos >= 0) {
                    break;
                }
                final long lateNanos = System.nanoTime() - dueNanos[due];
                if (lateNanos > maxLateNanos) {
                    maxLateNanos = lateNanos;
                }
                parkUntil(dueNanos[due]);
                // The next play of this connection is scheduled from this one's due time, not from
                // when it ended, so a late play does not thin out the Poisson arrivals.
                dueNanos[due] += gapNanos(random);
                try {
                    final PlayedConnection connection = connections.get(due);
                    final int shapeIndex = plan.shapeIndex(System.nanoTime() - startNanos, endNanos - startNanos, connection.bursts);
                    final ApplicationShape shape = plan.shapes().get(shapeIndex);
                    final TrafficShape burst = shape.burst(connection.shapeBursts[shapeIndex], shapeRandom);
                    connection.bursts++;
                    connection.shapeBursts[shapeIndex]++;
                    out.write(mapper.writeValueAsString(play(server, connection, burst)
                        .withShape(shape.name(), burst.spacingMicros(), burst.call().word())));
                    out.newLine();
                    out.flush();
                    written++;
                    consecutiveFailures = 0;
                } catch (SystemException e) {
                    // The demo stopping under us, or a call that timed out: skip this play.
                    System.err.println("play of connection " + connections.get(due).info.index_ref + " failed: " + e);
                    if (++consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) {
                        throw new IllegalStateException(MAX_CONSECUTIVE_FAILURES + " plays failed in a row; is the demo still running?", e);
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "recorded %d plays in %d s to %s%n", written, durationSeconds, recordsFile);
        if (maxLateNanos > LATE_WARNING_NANOS) {
            System.out.printf(Locale.ROOT, "plays fell behind their Poisson schedule by up to %.1f s (bursts took longer than"
                + " the gaps allow; a larger --gap-mean-millis keeps the arrivals Poisson)%n", maxLateNanos / 1e9);
        }
    }

    /** One read of state and estimate, the burst right after it, and the state again. */
    private BurstRecord play(final LatencyService server, final PlayedConnection connection, final TrafficShape burst) throws Exception {
        final short indexRef = connection.info().index_ref;
        final LoadRead before = LoadRead.of(server, indexRef);
        final long readEpochMillis = System.currentTimeMillis();
        Estimate estimate = null;
        String unavailableReason = "";
        try {
            estimate = play.askForShape() ? server.estimate_for_traffic(indexRef, new org.latencyserver.idl.latency.TrafficShape(
                burst.spacingMicros(), burst.burstRoundTrips(), burst.pauseMillis(), (short) burst.call().wireCode()))
                : server.current_estimate(indexRef);
        } catch (org.latencyserver.idl.latency.InvalidArgument e) {
            throw new IllegalStateException("the server refused the shape " + burst.label() + ": " + e.reason, e);
        } catch (EstimateUnavailable e) {
            unavailableReason = e.reason;
        } catch (UnknownConnection e) {
            throw new IllegalStateException("the server no longer knows connection " + indexRef + ": " + e.reason, e);
        }
        final long[] rttNanos = connection.rttNanos;
        int sent = 0;
        if (connection.checkable()) {
            final RoundTrip roundTrip = connection.roundTrip(burst.call());
            final long spacingNanos = burst.spacingMicros() * 1_000L;
            for (; sent < burst.burstRoundTrips(); sent++) {
                final long startNanos = System.nanoTime();
                roundTrip.once();
                rttNanos[sent] = System.nanoTime() - startNanos;
                parkUntil(startNanos + spacingNanos);
            }
        }
        final LoadRead after = LoadRead.of(server, indexRef);
        return toRecord(connection.info(), readEpochMillis, before, after, estimate, unavailableReason,
            Arrays.copyOf(rttNanos, sent));
    }

    private static BurstRecord toRecord(final ConnectionInfo info, final long epochMillis, final LoadRead before, final LoadRead after,
                                        final Estimate estimate, final String unavailableReason, final long[] rttNanos) {
        if (estimate == null) {
            return new BurstRecord(epochMillis, info.index_ref, info.quality, info.client_node_name, info.peer_node_name,
                info.message_size_bytes, before.cpuState(),
                before.portState(), after.cpuState(), after.portState(), false, unavailableReason, "", 0, 0, 0, 0, 0, "", "", "",
                before.updateRequiredFlag() == 1, false, 0, rttNanos, "", BurstRecord.UNRECORDED_STATE, BurstRecord.UNRECORDED_STATE,
                before.hopPortStates(), after.hopPortStates(), "", 0, 0);
        }
        return new BurstRecord(epochMillis, info.index_ref, info.quality, info.client_node_name, info.peer_node_name,
                info.message_size_bytes, before.cpuState(),
            before.portState(), after.cpuState(), after.portState(), true, "",
            estimate.kind == EstimateKind.BOUND ? "BOUND" : "AVERAGE", estimate.value_ms, estimate.thesis_value_ms,
            estimate.bound_percent, estimate.interval.lower, estimate.interval.upper, estimate.interval.unit, estimate.source,
            estimate.correction, estimate.update_pending, estimate.stale, estimate.data_epoch_millis, rttNanos, estimate.basis,
            estimate.cpu_state, estimate.port_state, before.hopPortStates(), after.hopPortStates(), estimate.path_bound_method,
            estimate.union_bound_ms, estimate.independent_bound_ms);
    }

    private long gapNanos(final SplittableRandom random) {
        return (long) (-Math.log(1 - random.nextDouble()) * play.gapMeanMillis() * 1_000_000L);
    }

    private static int earliest(final long[] dueNanos) {
        int earliest = 0;
        for (int i = 1; i < dueNanos.length; i++) {
            if (dueNanos[i] - dueNanos[earliest] < 0) {
                earliest = i;
            }
        }
        return earliest;
    }

    private static void parkUntil(final long deadlineNanos) {
        long waitNanos;
        while ((waitNanos = deadlineNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(waitNanos);
        }
    }

    /** A connection as played; only the player's one thread touches it. */
    private static final class PlayedConnection {
        /** the server's description */
        final ConnectionInfo info;
        /** one round trip of its size to its peer per call; null when it cannot be checked */
        private final RoundTrip octets;
        private final RoundTrip arrays;
        /** the burst's buffer, allocated once for the longest burst */
        final long[] rttNanos;
        /** bursts played so far, by shape index of the plan */
        final long[] shapeBursts;
        /** bursts played so far, every shape */
        long bursts;

        PlayedConnection(final ConnectionInfo info, final RoundTrip octets, final RoundTrip arrays, final long[] rttNanos,
                         final long[] shapeBursts) {
            this.info = info;
            this.octets = octets;
            this.arrays = arrays;
            this.rttNanos = rttNanos;
            this.shapeBursts = shapeBursts;
        }

        ConnectionInfo info() {
            return info;
        }

        boolean checkable() {
            return octets != null;
        }

        RoundTrip roundTrip(final CallKind call) {
            return call == CallKind.ARRAYS ? arrays : octets;
        }
    }

    /**
     * The connection's load state and whether it awaits a measurement, read as any application may
     * (list_connections and RequestStatus): the thesis's table is an operator call, and the demo
     * takes operator calls only over TLS.
     */
    private record LoadRead(short cpuState, short portState, short updateRequiredFlag, int[] hopPortStates) {
        static LoadRead of(final LatencyService server, final short indexRef) {
            final short flag = server.RequestStatus(indexRef).update_required_flag;
            for (final ConnectionInfo info : server.list_connections()) {
                if (info.index_ref == indexRef) {
                    final int[] hops = new int[info.hops.length];
                    for (int i = 0; i < hops.length; i++) {
                        hops[i] = info.hops[i].port_state;
                    }
                    return new LoadRead(info.cpu_state, info.port_state, flag, hops);
                }
            }
            throw new IllegalStateException("the server no longer lists connection " + indexRef);
        }
    }
}
