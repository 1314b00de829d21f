package org.latencyserver.server.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.latencyserver.idl.latency.LatencyServicePOATie;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.RunningComponent;
import org.latencyserver.orb.NameKeeper;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.Partitions;
import org.latencyserver.orb.References;
import org.latencyserver.orb.TlsStores;
import org.latencyserver.server.config.IndexRefScope;
import org.latencyserver.server.config.SecuritySettings;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.config.ServerSettings;
import org.latencyserver.server.corba.LatencyServiceServant;
import org.latencyserver.server.corba.WriteGuard;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.logging.RepeatedWarningFilter;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.persistence.LoadedProfiles;
import org.latencyserver.server.persistence.StateStore;
import org.latencyserver.server.security.CallerCapture;
import org.latencyserver.server.snmp.EngineFeed;
import org.latencyserver.server.snmp.SnmpPoller;
import org.latencyserver.server.snmp.SnmpPollerCounters;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
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
    private final EngineLoop loop;
    private final StateStore store;
    private final ServerMetrics metrics;
    private final RepeatedWarningFilter repeatedWarnings;
    private final String ior;
    private final int metricsPort;
    private final String metricsUrl;
    private final int connections;
    private NameKeeper nameKeeper;

    private LatencyServerNode(final ServerContext context, final ORB orb, final LatencyServiceServant servant,
                              final SnmpPoller poller, final EngineLoop loop, final StateStore store, final ServerMetrics metrics,
                              final RepeatedWarningFilter repeatedWarnings, final String ior, final int metricsPort,
                              final String metricsUrl, final int connections) {
        this.context = context;
        this.orb = orb;
        this.servant = servant;
        this.poller = poller;
        this.loop = loop;
        this.store = store;
        this.metrics = metrics;
        this.repeatedWarnings = repeatedWarnings;
        this.ior = ior;
        this.metricsPort = metricsPort;
        this.metricsUrl = metricsUrl;
        this.connections = connections;
    }

    /**
     * Builds and starts a server; returns once it serves.
     *
     * @param context what to start; {@link ServerContext#conclude() concluded} here
     * @return the running server
     * @throws LaunchFailure when the context or configuration is refused, TLS or the SNMP poller cannot
     *                       be set up, the ORB's or the metrics port cannot be listened on, or the naming service
     *                       cannot be reached or refuses the name
     * @throws IOException   when the IOR file or ready file cannot be written
     */
    public static LatencyServerNode launch(final ServerContext context) throws LaunchFailure, IOException {
        // A ready file or IOR file of an earlier run names a server that is gone: a start that fails leaves none.
        ReadyFile.deleteQuietly(context.readyFile());
        if (context.iorFile() != null) {
            Files.deleteIfExists(context.iorFile());
        }
        context.conclude();
        final ServerConfiguration configuration = context.configuration();
        final List<ConnectionRow> rows = new ArrayList<>();
        final long now = context.epochMillis().getAsLong();
        for (final ConnectionSpec spec : configuration.connectionSpecs()) {
            rows.add(ConnectionRow.initial(spec, now));
        }
        final SecureRandom random = new SecureRandom();
        // Profiles a planner loaded before a restart win over the configured files of the same name.
        final LoadedProfiles loadedProfiles = new LoadedProfiles(configuration.server().stateFile());
        final java.util.Map<String, org.latencyserver.core.profile.Profile> profiles = new java.util.HashMap<>(configuration.profiles());
        profiles.putAll(loadedProfiles.restore(configuration.limits().profileLimits(), configuration.connectionSpecs()));
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(rows), java.util.Map.copyOf(profiles),
            configuration.engine(), configuration.limits(), random::nextLong, context.epochMillis());
        final StateStore store = new StateStore(configuration.server().stateFile(), engine.table(),
            configuration.limits().maxHistogramBins());
        store.restoreInto(engine, context.nanoClock().getAsLong());
        engine.addListener(store);
        store.start(context.stateFlushIntervalMillis());
        final EngineLoop loop = new EngineLoop(engine, context.nanoClock(), context.engineTickIntervalNanos());
        final ServerMetrics metrics = new ServerMetrics(engine.table(), loop::counters, context.nanoClock(),
            context.perConnectionMetrics());
        metrics.registerStateStore(store::counters);
        metrics.registerProfileDrift(loop.query()::profileDrifts);
        final RepeatedWarningFilter repeatedWarnings = RepeatedWarningFilter.install(context.repeatedWarningIntervalMillis());
        if (repeatedWarnings != null) {
            metrics.registerLogWarnings(repeatedWarnings::counts);
        }
        final Runnable stopStarted = () -> {
            loop.close();
            store.close();
            metrics.close();
            if (repeatedWarnings != null) {
                repeatedWarnings.uninstall();
            }
        };
        final SecuritySettings security = configuration.security();
        // Pool, queue and connection settings for many callers: see OrbSupport.withServerTuning.
        final java.util.Properties orbProperties = OrbSupport.withServerTuning(
            CallerCapture.register(OrbSupport.properties(context.host(), context.orbPort(), context.callbackReplyTimeoutMillis())));
        if (security.tls() != null) {
            final SecuritySettings.Tls tls = security.tls();
            try {
                OrbSupport.withTlsServer(orbProperties, TlsStores.fromEnvironment(tls.keystore(), tls.truststore(), tls.passwordEnv()),
                    tls.port());
            } catch (IllegalArgumentException e) {
                stopStarted.run();
                throw new LaunchFailure(LaunchFailure.Kind.CONFIGURATION_REFUSED, "security.tls: " + e.getMessage());
            }
        }
        final ORB orb = OrbSupport.init(new String[0], orbProperties);
        final LatencyServiceServant servant = new LatencyServiceServant(loop, context.epochMillis(),
            new WriteGuard(security.policy(), CallerCapture.callers(orb), configuration.server().operatorCallsEnabled(),
                configuration.server().plannerCallsEnabled(), PolledConnections.of(configuration)),
            metrics, loadedProfiles::save, store::awaitSaved);
        announceSecurity(security);
        final ServerSettings.Metrics configured = configuration.server().metrics();
        final String metricsHost = context.metricsPort() == null ? configured.address() : context.host();
        final int metricsListenPort = context.metricsPort() == null ? (configured.enabled() ? configured.port() : -1)
            : context.metricsPort();
        int metricsBound = -1;
        String metricsUrl = null;
        if (metricsListenPort >= 0) {
            try {
                metricsBound = metrics.serve(metricsHost, metricsListenPort);
            } catch (IOException e) {
                stopStartedWithOrb(servant, null, stopStarted, orb);
                throw new LaunchFailure(LaunchFailure.Kind.CANNOT_LISTEN, "the metrics endpoint cannot listen on " + metricsHost
                    + ":" + metricsListenPort + ": " + e.getMessage());
            }
            metricsUrl = "http://" + metricsHost + ":" + metricsBound + "/metrics";
            LOG.info("metrics at {}", metricsUrl);
        }
        engine.addListener(servant.engineListener());
        loop.start();
        final SnmpPoller poller;
        try {
            poller = SnmpPoller.polls(configuration) ? SnmpPoller.forConfiguration(configuration,
                new EngineFeed(loop, metrics::snmpAnswerApplied, System::nanoTime)) : null;
        } catch (IllegalArgumentException e) {
            stopStartedWithOrb(servant, null, stopStarted, orb);
            throw new LaunchFailure(LaunchFailure.Kind.CONFIGURATION_REFUSED, "the SNMP poller cannot start: " + e.getMessage());
        }
        if (poller != null) {
            metrics.registerSnmpPoller(() -> SnmpPollerCounters.of(poller));
            poller.start();
        }

        final LatencyServerNode node;
        final org.omg.CORBA.Object reference;
        try {
            final POA rootPoa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
            rootPoa.the_POAManager().activate();
            reference = rootPoa.servant_to_reference(new LatencyServicePOATie(servant));
            node = new LatencyServerNode(context, orb, servant, poller, loop, store, metrics, repeatedWarnings,
                orb.object_to_string(reference), metricsBound, metricsUrl, rows.size());
        } catch (org.omg.CORBA.INITIALIZE e) {
            // JacORB opens its listening socket with the root POA; INITIALIZE is its word for a port it cannot have.
            stopStartedWithOrb(servant, poller, stopStarted, orb);
            throw new LaunchFailure(LaunchFailure.Kind.CANNOT_LISTEN, "cannot listen at " + context.host() + ":" + context.orbPort()
                + ": " + e.getMessage());
        } catch (org.omg.CORBA.UserException | RuntimeException e) {
            // RootPOA is always there and the servant is new: JacORB would be broken.
            stopStartedWithOrb(servant, poller, stopStarted, orb);
            throw new IllegalStateException("the ORB refused to activate the servant: " + e, e);
        }
        // From here on the node stops everything when the rest of the start fails.
        try {
            node.serve(reference);
        } catch (LaunchFailure | IOException | RuntimeException e) {
            node.close();
            throw e;
        }
        return node;
    }

    /** Stops what a launch had started before its node existed (so that it leaves nothing running). */
    private static void stopStartedWithOrb(final LatencyServiceServant servant, final SnmpPoller poller, final Runnable stopStarted,
                                           final ORB orb) {
        servant.close();
        if (poller != null) {
            poller.close();
        }
        stopStarted.run();
        orb.shutdown(true);
        orb.destroy();
    }

    /** Registers in the naming service, then writes the IOR file and the ready file: from then on it serves. */
    private void serve(final org.omg.CORBA.Object reference) throws LaunchFailure, IOException {
        final ServerConfiguration configuration = context.configuration();
        final String naming = context.namingReference();
        final String registered = configuration.server().registeredName();
        try {
            nameKeeper = naming == null ? null
                : NameKeeper.bind(orb, naming, namesToKeep(configuration, naming), reference, context.nameCheckIntervalMillis());
        } catch (References.ReferenceException e) {
            throw new LaunchFailure(LaunchFailure.Kind.NAMING_REFUSED, "cannot register as '" + registered
                + "': " + e.getMessage() + "; " + NameKeeper.WHAT_TO_DO + ".");
        }
        if (nameKeeper != null) {
            LOG.info("registered as '{}' in {}{}", registered, naming, configuration.server().partition() == null ? ""
                : " with its client nodes under " + configuration.server().name() + "/" + Partitions.BY_CLIENT);
        }
        // Only now: a server that could not register leaves no IOR file or ready file pointing at it.
        if (context.iorFile() != null) {
            OrbSupport.writeIor(context.iorFile(), ior);
        }
        readyFile().writeTo(context.readyFile());
        LOG.info("Latency Server '{}' serving {} connections ({} profiles) on {}; IOR in {}", registered,
            connections, configuration.profiles().size(), context.host(),
            context.iorFile() == null ? "no file" : context.iorFile().toAbsolutePath());
    }

    /**
     * @return the names to bind in the naming service: {@code server.name} for the only server; for a
     *         partition's, its name, its index ranges and its client nodes, once {@link Partitions#claim} found
     *         no other partition holding them
     * @throws LaunchFailure {@link LaunchFailure.Kind#PARTITION_CONFLICT} naming both partitions and what both claim
     */
    private List<String> namesToKeep(final ServerConfiguration configuration, final String naming) throws LaunchFailure {
        final String partition = configuration.server().partition();
        if (partition == null) {
            return List.of(configuration.server().name());
        }
        final java.util.Set<Integer> indexRefs = new java.util.TreeSet<>();
        final java.util.Set<String> clientNodes = new java.util.TreeSet<>();
        for (final ConnectionSpec spec : configuration.connectionSpecs()) {
            indexRefs.add((int) spec.indexRef());
            clientNodes.add(spec.clientNodeName());
        }
        try {
            return Partitions.claim(orb, naming, configuration.server().name(), partition, Partitions.rangesOf(indexRefs),
                configuration.server().indexRefScope() == IndexRefScope.PARTITION,
                clientNodes);
        } catch (Partitions.ConflictException e) {
            throw new LaunchFailure(LaunchFailure.Kind.PARTITION_CONFLICT, "partition '" + partition + "' cannot start: "
                + e.getMessage());
        }
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
