package org.latencyserver.server.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.RunningComponent;
import org.latencyserver.launch.agent.CloseStack;
import org.latencyserver.orb.NameKeeper;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.Partitions;
import org.latencyserver.server.config.SecuritySettings;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.corba.LatencyServiceServant;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.logging.RepeatedWarningFilter;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.persistence.StateStore;
import org.latencyserver.server.snmp.SnmpPoller;
import org.omg.CORBA.ORB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Latency Server: {@link #launch} builds and starts it from a {@link ServerContext} (the
 * composition root: engine and its loop, state store, metrics, ORB and servant, SNMP poller, name
 * keeper), in this JVM; {@link #close} stops it all in reverse order, with the state store's last
 * save. {@code ServerMain} is this plus argument parsing; a test launches it directly.
 *
 * <p>Once {@code launch} returns, the server serves: its IOR file (when asked for) and its ready file
 * (when asked for) are written, and it is registered in the naming service (when given one). A
 * launch that fails stops whatever it had started and writes neither file. With
 * {@code server.partition} it registers as that partition of the deployment {@code server.name},
 * with its index ranges and client workstations, after checking that no other partition holds them
 * ({@link Partitions#claim}); a conflict is a {@link LaunchFailure.Kind#PARTITION_CONFLICT}.
 *
 * <p>Several servers may run in one JVM at once (a test shows two), each with its own JacORB ORB and
 * its own state file; a logback filter against repeated warnings is installed per server and removed
 * again by {@code close}.
 *
 * <p>Thread-safety: the accessors are safe from any thread; {@link #close} is idempotent and may be
 * called from any thread except an ORB request thread (it waits for the ORB's calls in progress).
 */
public final class LatencyServerNode extends RunningComponent {

    private static final Logger LOG = LoggerFactory.getLogger(LatencyServerNode.class);

    private final ServerContext context;
    private final ORB orb;
    private final LatencyServiceServant servant;
    private final SnmpPoller poller;
    /** The pair this server is one of ({@code server.standby}), or null. */
    private final StandbyWiring standby;
    private final EngineLoop loop;
    /** The published rows, readable from any thread. */
    private final org.latencyserver.server.table.ConnectionTable table;
    /** The engine's learned profile cells, an immutable snapshot readable from any thread. */
    private final java.util.function.Supplier<java.util.Map<String, java.util.Map<
        org.latencyserver.core.calibration.LearnedProfiles.CellKey, org.latencyserver.core.calibration.LearnedCell>>> learnedCells;
    private final StateStore store;
    private final ServerMetrics metrics;
    private final RepeatedWarningFilter repeatedWarnings;
    /** The servant's reference, as activated in the root POA. */
    private final org.omg.CORBA.Object reference;
    private final String ior;
    /** The root POA's manager: a standby's discards requests until it takes over. */
    private final org.omg.PortableServer.POAManager poaManager;
    private final int metricsPort;
    private final String metricsUrl;
    private final int connections;
    /** Binds and checks its names in the naming service. */
    private final ServerNames names;
    /** Set once while starting; read by metrics scrapes. */
    private volatile NameKeeper nameKeeper;

    private LatencyServerNode(final ServerAssembly parts, final StandbyWiring standby) {
        this.context = parts.context;
        this.standby = standby;
        this.orb = parts.orb;
        this.servant = parts.servant;
        this.poller = parts.poller;
        this.loop = parts.loop;
        this.table = parts.engine.table();
        this.learnedCells = parts.engine::learnedCells;
        this.store = parts.store;
        this.metrics = parts.metrics;
        this.repeatedWarnings = parts.repeatedWarnings;
        this.reference = parts.reference;
        this.ior = orb.object_to_string(parts.reference);
        this.poaManager = parts.poaManager;
        this.metricsPort = parts.metricsBound;
        this.metricsUrl = parts.metricsUrl;
        this.connections = parts.connections;
        this.names = new ServerNames(orb, context, reference);
        if (metrics != null) {
            metrics.registerNameRepairs(() -> {
                final NameKeeper keeper = nameKeeper;
                return keeper == null ? 0L : keeper.repairs();
            });
        }
    }

    /**
     * Builds and starts a server; returns once it serves. Each start step ({@link ServerAssembly})
     * pushes what it started onto a {@link CloseStack}; a step that fails closes what the earlier ones
     * started, last first. Once the node exists, it owns all of it, and its {@link #close} stops it.
     *
     * @param context what to start; {@link ServerContext#conclude() concluded} here
     * @return the running server
     * @throws LaunchFailure when the context or configuration is refused, TLS or the SNMP poller cannot
     *                       be set up, the ORB's or the metrics port cannot be listened on, or the naming service
     *                       cannot be reached or refuses the name
     * @throws IOException   when the IOR file or ready file cannot be written
     */
    public static LatencyServerNode launch(final ServerContext context) throws LaunchFailure, IOException {
        forgetEarlierRun(context);
        context.conclude();
        final LatencyServerNode node;
        final ServerAssembly parts;
        try (CloseStack undo = new CloseStack()) {
            parts = new ServerAssembly(context, undo);
            parts.startEngineAndStore();
            parts.registerMetrics();
            parts.initOrb();
            final StandbyWiring standby = StandbyWiring.join(parts); // after the ORB: it asks the naming service
            if (standby != null) {
                undo.push(standby);
            } else {
                parts.metrics.registerStandby(() -> org.latencyserver.server.standby.StandbyCounters.WITHOUT_STANDBY);
            }
            parts.createServant();
            if (standby != null) {
                parts.servant.pairCounters(standby::counters);
            }
            announceSecurity(context.configuration().security());
            parts.serveMetrics();
            if (standby == null || standby.primary()) {
                parts.startLoopAndPoller();
                parts.activateServant();
            } else {
                parts.activateServant(false); // requests discarded (TRANSIENT) until it takes over
            }
            node = new LatencyServerNode(parts, standby);
            undo.release(); // the node owns them now: its close stops them in its own order
        }
        if (node.standby != null) {
            node.standby.stepDownWith(node::stopServing);
            node.standby.standingByAgainWith(() -> {
                try {
                    node.readyFile().writeTo(node.context.readyFile());
                } catch (IOException e) {
                    LOG.error("could not rewrite the ready file: {}", e.toString());
                }
            });
            if (node.standby.primary()) {
                // Should it step down and stand by again, it may take over again when the other server leaves.
                node.standby.takeOverWith(parts.engine, node.loop, node.servant, node.metrics, parts.poaManager, node.nameBinding());
            }
        }
        // From here on the node stops everything when the rest of the start fails.
        try {
            if (node.standby != null && !node.standby.primary()) {
                node.standBy(parts);
            } else {
                node.serve();
            }
        } catch (LaunchFailure | IOException | RuntimeException e) {
            node.close();
            throw e;
        }
        return node;
    }

    /**
     * A standby writes its IOR file and ready file but binds no name; when the primary leaves it takes over: its
     * update thread and poller start, requests are let in, and its names are bound ({@link #serve}).
     */
    private void standBy(final ServerAssembly parts) throws IOException {
        if (context.iorFile() != null) {
            OrbSupport.writeIor(context.iorFile(), ior);
        }
        readyFile().writeTo(context.readyFile());
        LOG.info("Latency Server '{}' standing by with {} connections; it takes over when the primary leaves the pair",
            context.configuration().server().registeredName(), connections);
        standby.takeOverWith(parts.engine, loop, servant, metrics, parts.poaManager, nameBinding());
    }

    /** @return how a takeover checks and binds this server's names */
    private StandbyWiring.NameBinding nameBinding() {
        return new StandbyWiring.NameBinding() {
            @Override
            public boolean heldByAnotherLiveServer() {
                return names.heldByAnotherLiveServer();
            }

            @Override
            public void bind() throws LaunchFailure {
                try {
                    serve();
                } catch (IOException e) {
                    throw new LaunchFailure(LaunchFailure.Kind.NAMING_REFUSED, "the ready file could not be written: " + e.getMessage());
                }
            }
        };
    }

    /**
     * Stops serving without stopping (a primary that met another primary after a cut and is not the pair's coordinator):
     * its names are no longer kept (the other's name keeper binds them to itself), its poller stops, and requests are
     * discarded. The ready file says so.
     */
    private void stopServing() {
        final NameKeeper keeper = nameKeeper;
        if (keeper != null) {
            keeper.close();
            nameKeeper = null; // the ready file no longer says it holds the name
        }
        if (poller != null) {
            poller.close();
        }
        try {
            poaManager.discard_requests(false);
        } catch (org.omg.PortableServer.POAManagerPackage.AdapterInactive e) {
            LOG.error("could not stop taking requests: {}", e.toString());
        }
        try {
            readyFile().writeTo(context.readyFile());
        } catch (IOException e) {
            LOG.error("could not rewrite the ready file: {}", e.toString());
        }
    }

    /** For tests: cuts (true) or heals (false) the link to the other server of the pair, as a failed network would. */
    void isolateStandbyChannelForTest(final boolean isolated) {
        standby.isolateForTest(isolated);
    }

    /** A ready file or IOR file of an earlier run names a server that is gone: a start that fails leaves none. */
    private static void forgetEarlierRun(final ServerContext context) throws IOException {
        ReadyFile.deleteQuietly(context.readyFile());
        if (context.iorFile() != null) {
            Files.deleteIfExists(context.iorFile());
        }
    }

    /** Registers in the naming service, then writes the IOR file and the ready file: from then on it serves. */
    private void serve() throws LaunchFailure, IOException {
        final ServerConfiguration configuration = context.configuration();
        final String registered = configuration.server().registeredName();
        nameKeeper = names.bind(standby);
        // Only now: a server that could not register leaves no IOR file or ready file pointing at it.
        if (context.iorFile() != null) {
            OrbSupport.writeIor(context.iorFile(), ior);
        }
        readyFile().writeTo(context.readyFile());
        LOG.info("Latency Server '{}' serving {} connections ({} profiles) on {}; IOR in {}", registered,
            connections, configuration.profiles().size(), context.host(),
            context.iorFile() == null ? "no file" : context.iorFile().toAbsolutePath());
    }

    /** @return its ready file's content: the rows of {@code docs/ready-files.md} for {@code server} */
    @Override
    public ReadyFile.Builder readyFile() {
        final ReadyFile.Builder ready = ReadyFile.of(Component.SERVER).reference("server", ior)
            .fact("connections", connections);
        if (metricsUrl != null) {
            ready.port("metrics", metricsPort).url("metrics", metricsUrl);
        }
        if (context.iorFile() != null) {
            ready.file("ior", context.iorFile());
        }
        final Path stateFile = context.configuration().server().stateFile();
        if (stateFile != null) {
            ready.file("state", stateFile);
        }
        if (standby != null) {
            ready.fact("standby", standby.primary() ? "primary" : standby.steppedDown() ? "stepped down" : "standing by");
        }
        if (nameKeeper != null) {
            ready.fact("name", context.configuration().server().registeredName());
            if (context.configuration().server().partition() != null) {
                ready.fact("partition", context.configuration().server().partition());
            }
        }
        return ready;
    }

    /** Says once at start who may write, so an operator never runs an open server unknowingly. */
    private static void announceSecurity(final SecuritySettings security) {
        if (security.plainIiop() == SecuritySettings.PlainIiop.ALL) {
            LOG.warn("writes are open to every caller (security.plain_iiop: all{}): anyone who reaches the port may push MIB"
                + " readings, submit results and load profiles; see the security section of docs/operator-guide.md",
                security.tls() == null ? ", no security section" : "");
        } else {
            LOG.info("plain IIOP is read-only; writes need IIOP/TLS and a role ({} principals){}", security.principals().size(),
                security.tls() == null ? "; no TLS is configured, so nobody can write" : "");
        }
    }

    /** @return the server's stringified reference ({@code Latserv} and {@code LatencyService}) */
    public String serverIor() {
        return ior;
    }

    /** @return the metrics endpoint's URL, when it serves one */
    public Optional<String> metricsUrl() {
        return Optional.ofNullable(metricsUrl);
    }

    /** @return the metrics endpoint's port, when it serves one */
    public OptionalInt metricsPort() {
        return metricsUrl == null ? OptionalInt.empty() : OptionalInt.of(metricsPort);
    }

    /** @return whether this server stepped down after meeting another primary (false without {@code server.standby}) */
    public boolean steppedDownFromStandbyPair() {
        return standby != null && standby.steppedDown();
    }

    /** @return the pair as this server sees it ({@code server.standby}), or empty for a server without standby */
    public Optional<org.latencyserver.server.standby.StandbyCounters> standbyCounters() {
        return standby == null ? Optional.empty() : Optional.of(standby.counters());
    }

    /**
     * Leaves the pair as a crash would — no leave message; the other server finds this one gone by failure
     * detection — while the rest of this server runs on. For tests of a takeover in one JVM.
     *
     * @throws IllegalStateException without {@code server.standby}
     */
    public void crashStandbyChannelForTest() {
        if (standby == null) {
            throw new IllegalStateException("this server has no server.standby");
        }
        standby.crashChannel();
    }

    /** @return its table's published rows (a standby's: the copy of its primary's), readable from any thread */
    org.latencyserver.server.table.ConnectionTable table() {
        return table;
    }

    /** @return the profile cells its engine learned from probes (a standby's: the copy of its primary's), any thread */
    java.util.Map<String, java.util.Map<org.latencyserver.core.calibration.LearnedProfiles.CellKey,
        org.latencyserver.core.calibration.LearnedCell>> learnedCells() {
        return learnedCells.get();
    }

    /** @return how many connections it serves (those of the configuration) */
    public int connections() {
        return connections;
    }

    /**
     * Stops the server in reverse order of start: the name keeper (the name stays bound, as when the
     * process ends), the servant, the SNMP poller, the engine loop, the state store (its last save),
     * the metrics endpoint, the ORB (waiting for calls in progress, releasing its ports); then deletes
     * its ready file. The IOR file stays, as it always has.
     */
    @Override
    protected void stop() {
        LOG.info("stopping");
        if (nameKeeper != null) {
            nameKeeper.close();
        }
        if (standby != null) {
            standby.close();
        }
        servant.close();
        if (poller != null) {
            poller.close();
        }
        loop.close();
        store.close();
        metrics.close();
        if (repeatedWarnings != null) {
            repeatedWarnings.uninstall();
        }
        orb.shutdown(true);
        orb.destroy();
        ReadyFile.deleteQuietly(context.readyFile());
    }
}
