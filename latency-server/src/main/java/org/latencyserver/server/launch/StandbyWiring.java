package org.latencyserver.server.launch;

import java.io.IOException;
import java.util.List;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.config.StandbySettings;
import org.latencyserver.server.corba.LatencyServiceServant;
import org.latencyserver.server.engine.Command;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.snmp.SnmpPoller;
import org.latencyserver.server.standby.HotStandby;
import org.latencyserver.server.standby.StandbyCounters;
import org.omg.PortableServer.POAManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's place in a primary/standby pair ({@code server.standby}), wired into its launch: joins
 * the pair before the update thread starts, holds a primary's writes until the standby has them,
 * and, on a standby, takes over — the engine's update thread, the SNMP poller, the servant and the
 * names — when the primary leaves.
 *
 * <p>Thread-safety: {@link #join} and {@link #stateSaver} on the launching thread; the takeover on
 * the pair's {@code standby-takeover} thread, once; {@link #close} from any thread.
 */
final class StandbyWiring implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StandbyWiring.class);

    /** What a takeover does after the engine runs and requests are served: bind the server's names. */
    interface NameBinding {
        void bind() throws LaunchFailure;
    }

    private final HotStandby pair;
    private final ServerConfiguration configuration;
    private final java.util.function.LongSupplier nanoClock;
    /** Started by a takeover; closed by {@link #close}. */
    private volatile SnmpPoller poller;

    private StandbyWiring(final HotStandby pair, final ServerConfiguration configuration,
                          final java.util.function.LongSupplier nanoClock) {
        this.pair = pair;
        this.configuration = configuration;
        this.nanoClock = nanoClock;
    }

    /**
     * Joins the pair when the configuration has {@code server.standby}; sets the assembly's state saver so that a
     * primary's writes wait for the standby too, and registers the pair's metrics.
     *
     * @return the wiring, or null without {@code server.standby}
     * @throws LaunchFailure {@link LaunchFailure.Kind#CANNOT_LISTEN} when the pair's channel cannot listen or connect
     */
    static StandbyWiring join(final ServerAssembly parts) throws LaunchFailure {
        final StandbySettings settings = parts.configuration.server().standby();
        if (settings == null) {
            return null;
        }
        final HotStandby pair;
        try {
            pair = HotStandby.join(settings, "latency-" + parts.configuration.server().registeredName(), parts.engine,
                parts.configuration.limits().maxHistogramBins(), parts.context.nanoClock(), parts.context.stateFlushIntervalMillis());
        } catch (IOException e) {
            throw new LaunchFailure(LaunchFailure.Kind.CANNOT_LISTEN, "server.standby: " + e.getMessage());
        }
        final StandbyWiring wiring = new StandbyWiring(pair, parts.configuration, parts.context.nanoClock());
        parts.metrics.registerStandby(pair::counters);
        final LatencyServiceServant.StateSaver disk = parts.store::awaitSaved;
        parts.stateSaver = timeoutMillis -> {
            final boolean saved = disk.awaitSaved(timeoutMillis);
            if (pair.primary()) {
                pair.awaitReplicated(timeoutMillis); // false: answered unprotected, counted by the pair
            }
            return saved;
        };
        return wiring;
    }

    /** @return whether this server is the primary (it launches as today) rather than the standby */
    boolean primary() {
        return pair.primary();
    }

    /**
     * From now on a takeover may run: it applies the records that awaited a measurement, starts the update thread
     * and the poller, lets requests in and binds the names.
     */
    void takeOverWith(final UpdateEngine engine, final EngineLoop loop, final LatencyServiceServant servant,
                      final ServerMetrics metrics, final POAManager poaManager, final NameBinding names) {
        pair.onTakeover(awaiting -> {
            try {
                engine.addListener(servant.engineListener());
                final long now = nanoClock.getAsLong();
                for (final Command.RestoreConnection command : awaiting) {
                    command.applyTo(engine, now);
                }
                loop.start();
                poller = ServerAssembly.startPoller(configuration, loop, metrics);
                poaManager.activate();
                names.bind();
            } catch (LaunchFailure | IOException | RuntimeException | org.omg.PortableServer.POAManagerPackage.AdapterInactive e) {
                LOG.error("the takeover failed: {}; this server does not serve as primary", e.toString());
            }
        });
    }

    /** @return the pair as this server sees it now */
    StandbyCounters counters() {
        return pair.counters();
    }

    /** For tests: leaves the pair as a crash would (no leave message). */
    void crashChannel() {
        pair.closeAbruptly();
    }

    /** Leaves the pair and stops a poller a takeover started. */
    @Override
    public void close() {
        pair.close();
        final SnmpPoller started = poller;
        if (started != null) {
            started.close();
        }
    }
}
