package org.latencyserver.server.engine;

import org.latencyserver.core.state.ConnectionLoadState;
import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStateClassifier;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.state.PortStateClassifier;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.StaleInputs;

/**
 * Load classification: a connection's MIB values as its load state (the CPU state of each end, the port's state),
 * with hysteresis against the state it was in; what makes a polled reading tick-counter noise; and which inputs make an
 * estimate stale (those whose value is unknown). The thresholds come from the engine's settings.
 *
 * <p>Immutable and thread-safe.
 */
final class LoadClassification {

    /** A polled end that moved by at most this many points within its load state is noise (see {@link #withinJitter}). */
    static final int POLLED_JITTER_PERCENT = 1;

    private final CpuStateClassifier cpuClassifier;
    private final PortStateClassifier portClassifier;

    /** @param settings the CPU thresholds, the port's hysteresis band and its bands */
    LoadClassification(final EngineSettings settings) {
        this.cpuClassifier = new CpuStateClassifier(settings.cpuThresholds());
        this.portClassifier = new PortStateClassifier(PortStateClassifier.LOADED_ABOVE_PERCENT, settings.portHysteresisBandPercent(),
            settings.portBands());
    }

    /**
     * @param row     the connection as it is (its state gives the hysteresis)
     * @param reading new values; −1 for unknown
     * @return the load state they read as
     */
    ConnectionLoadState loadOf(final ConnectionRow row, final MibReading reading) {
        final CpuState client = reading.clientCpuPercent() < 0 ? CpuState.UNKNOWN
            : cpuClassifier.classify(reading.clientCpuPercent(), row.load().cpu().client());
        final CpuState peer = reading.peerCpuPercent() < 0 ? CpuState.UNKNOWN
            : cpuClassifier.classify(reading.peerCpuPercent(), row.load().cpu().peer());
        final int hopCount = row.spec().hopCount();
        if (hopCount == 1) {
            final PortState port = reading.portPercent() < 0 ? PortState.UNKNOWN
                : portClassifier.classify(reading.portPercent(), row.load().port());
            return new ConnectionLoadState(new CpuStatePair(client, peer), port);
        }
        // Each hop with its own hysteresis, against the same hop's state before (none before the path's first reading).
        final boolean hopsBefore = row.load().hops().size() == hopCount;
        final List<PortState> hops = new ArrayList<>(hopCount);
        for (int i = 0; i < hopCount; i++) {
            final short percent = reading.ports().count() == hopCount ? reading.ports().at(i) : -1;
            hops.add(percent < 0 ? PortState.UNKNOWN
                : portClassifier.classify(percent, hopsBefore ? row.load().hops().get(i) : null));
        }
        return ConnectionLoadState.ofHops(new CpuStatePair(client, peer), hops);
    }

    /**
     * @param latest values saved before a restart
     * @return the load state they read as afresh, without hysteresis history
     */
    ConnectionLoadState restored(final MibReading latest) {
        final CpuState client = latest.clientCpuPercent() < 0 ? CpuState.UNKNOWN : cpuClassifier.classifyPlain(latest.clientCpuPercent());
        final CpuState peer = latest.peerCpuPercent() < 0 ? CpuState.UNKNOWN : cpuClassifier.classifyPlain(latest.peerCpuPercent());
        if (latest.ports().count() == 1) {
            final PortState port = latest.portPercent() < 0 ? PortState.UNKNOWN : portClassifier.classify(latest.portPercent(), null);
            return new ConnectionLoadState(new CpuStatePair(client, peer), port);
        }
        final List<PortState> hops = new ArrayList<>(latest.ports().count());
        for (int i = 0; i < latest.ports().count(); i++) {
            final short percent = latest.ports().at(i);
            hops.add(percent < 0 ? PortState.UNKNOWN : portClassifier.classify(percent, null));
        }
        return ConnectionLoadState.ofHops(new CpuStatePair(client, peer), hops);
    }

    /**
     * @return whether every end moved by at most {@value #POLLED_JITTER_PERCENT} point, known ends staying known and
     *         unknown ones unknown
     */
    static boolean withinJitter(final MibReading was, final MibReading is) {
        if (!withinJitter(was.clientCpuPercent(), is.clientCpuPercent()) || !withinJitter(was.peerCpuPercent(), is.peerCpuPercent())
            || was.ports().count() != is.ports().count()) {
            return false;
        }
        for (int i = 0; i < is.ports().count(); i++) {
            if (!withinJitter(was.ports().at(i), is.ports().at(i))) {
                return false;
            }
        }
        return true;
    }

    /** Both unknown, or both known and at most {@value #POLLED_JITTER_PERCENT} point apart. */
    private static boolean withinJitter(final short was, final short is) {
        return was < 0 ? is < 0 : is >= 0 && Math.abs(is - was) <= POLLED_JITTER_PERCENT;
    }

    /**
     * @param spec    the connection, whose links name the hops
     * @param reading the connection's values
     * @return the inputs whose values are unknown, so that an estimate served with them may not hold; none when all are known
     */
    static StaleInputs staleInputs(final ConnectionSpec spec, final MibReading reading) {
        return StaleInputs.unknownIn(reading, spec.linkNames());
    }
}
