package org.latencyserver.server.launch;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.idl.latency.LatencyServicePOATie;
import org.latencyserver.launch.agent.CloseStack;
import org.latencyserver.orb.CertificateExpiryWarning;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.TlsStores;
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
import org.latencyserver.server.security.ReloadingSslServerSocketFactory;
import org.latencyserver.server.security.ServerTlsCredentials;
import org.latencyserver.server.security.ServerTlsFiles;
import org.latencyserver.server.snmp.EngineFeed;
import org.latencyserver.server.snmp.SnmpPollerCounters;
import org.latencyserver.server.snmp.SnmpPoller;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start steps of a {@link LatencyServerNode}, one method each, in the order
 * {@link LatencyServerNode#launch} calls them. Each step pushes what it started onto the launch's
 * {@link CloseStack}, so a step that fails leaves nothing running: the stack closes what the earlier
 * steps started, last first.
 *
 * <p>Thread-safety: the launching thread only; it lives as long as one launch.
 */
final class ServerAssembly {

    private static final Logger LOG = LoggerFactory.getLogger(ServerAssembly.class);
    /** How often the server checks its TLS files (key store, trust store, revoked list) for a change. */
    static final long TLS_FILES_CHECK_INTERVAL_MILLIS = 10_000;

    final ServerContext context;
    final ServerConfiguration configuration;
    private final CloseStack undo;
    int connections;
    UpdateEngine engine;
    LoadedProfiles loadedProfiles;
    /** The profiles planners loaded before this start, as restored. */
    Map<String, Profile> restoredProfiles = Map.of();
    /** Keeps a profile a planner loads; the loaded profiles' files, or the pair's ({@link StandbyWiring}) when set. */
    org.latencyserver.server.engine.ProfileInstaller.ProfileKeeper profileKeeper;
    StateStore store;
    EngineLoop loop;
    ServerMetrics metrics;
    RepeatedWarningFilter repeatedWarnings;
    ORB orb;
    LatencyServiceServant servant;
    int metricsBound = -1;
    String metricsUrl;
    SnmpPoller poller;
    org.omg.CORBA.Object reference;
    /** Holds a write's answer until it is saved; the state store's, or the pair's ({@link StandbyWiring}) when set. */
    LatencyServiceServant.StateSaver stateSaver;
    /** The root POA's manager, which a standby keeps discarding requests until it takes over. */
    org.omg.PortableServer.POAManager poaManager;

    ServerAssembly(final ServerContext context, final CloseStack undo) {
        this.context = context;
        this.configuration = context.configuration();
        this.undo = undo;
    }

    /** The engine with the configured rows and profiles (those a planner loaded before a restart win), and its state restored. */
    void startEngineAndStore() {
        final List<ConnectionRow> rows = new ArrayList<>();
        final long nowMillis = context.epochMillis().getAsLong();
        for (final ConnectionSpec spec : configuration.connectionSpecs()) {
            rows.add(ConnectionRow.initial(spec, nowMillis));
        }
        connections = rows.size();
        final SecureRandom random = new SecureRandom();
        loadedProfiles = new LoadedProfiles(configuration.server().stateFile());
        final Map<String, Profile> profiles = new HashMap<>(configuration.profiles());
        restoredProfiles = loadedProfiles.restore(configuration.limits().profileLimits(), configuration.connectionSpecs());
        profiles.putAll(restoredProfiles);
        engine = new UpdateEngine(new ConnectionTable(rows), Map.copyOf(profiles),
            configuration.engine(), configuration.limits(), random::nextLong, context.epochMillis());
        store = undo.push(new StateStore(configuration.server().stateFile(), engine.table(),
            configuration.limits().maxHistogramBins()));
        store.restoreInto(engine, context.nanoClock().getAsLong());
        engine.addListener(store);
        store.start(context.stateFlushIntervalMillis());
        loop = undo.push(new EngineLoop(engine, context.nanoClock(), context.engineTickIntervalNanos()));
    }

    /** The metrics and their sources, and the filter against repeated warnings. */
    void registerMetrics() {
        metrics = undo.push(new ServerMetrics(engine.table(), loop::counters, context.nanoClock(),
            context.perConnectionMetrics()));
        metrics.registerStateStore(store::counters);
        metrics.registerProfileDrift(loop.query()::profileDrifts);
        repeatedWarnings = RepeatedWarningFilter.install(context.repeatedWarningIntervalMillis());
        if (repeatedWarnings != null) {
            undo.push((AutoCloseable) repeatedWarnings::uninstall);
            metrics.registerLogWarnings(repeatedWarnings::counts);
        }
    }

    /**
     * The ORB, tuned for many callers, with IIOP/TLS when configured.
     *
     * @throws LaunchFailure {@link LaunchFailure.Kind#CONFIGURATION_REFUSED} when the TLS stores cannot be used
     */
    void initOrb() throws LaunchFailure {
        final SecuritySettings security = configuration.security();
        // Pool, queue and connection settings for many callers: see OrbSupport.withServerTuning.
        final Properties orbProperties = OrbSupport.withServerTuning(
            CallerCapture.register(OrbSupport.properties(context.host(), context.orbPort(), context.callbackReplyTimeoutMillis())));
        // The largest message, idle connections and the connection cap: see ConnectionLimits.applyTo.
        configuration.connectionLimits().applyTo(orbProperties);
        if (security.tls() != null) {
            final SecuritySettings.Tls tls = security.tls();
            try {
                final TlsStores stores = TlsStores.fromEnvironment(tls.keystore(), tls.truststore(), tls.passwordEnv());
                OrbSupport.withTlsServer(orbProperties, stores, tls.port());
                // Stores and revoked list re-read when changed; refused client certificates counted and logged.
                final ServerTlsCredentials credentials = undo.push(ServerTlsCredentials.open(
                    new ServerTlsFiles(stores.keystore(), stores.truststore(), tls.revokedSerials(), stores.password())));
                ReloadingSslServerSocketFactory.installIn(orbProperties, credentials);
                credentials.start(TLS_FILES_CHECK_INTERVAL_MILLIS);
                // The metrics and the alert tell it later; a server without Prometheus still says it at start.
                CertificateExpiryWarning.warningAt(credentials.current().own(), tls.keystore(), java.time.Instant.now())
                    .ifPresent(warning -> LOG.warn("security.tls: {}", warning));
                metrics.registerTlsCertificates(credentials);
            } catch (IllegalArgumentException e) {
                throw new LaunchFailure(LaunchFailure.Kind.CONFIGURATION_REFUSED, "security.tls: " + e.getMessage());
            }
        }
        final ORB started = OrbSupport.init(new String[0], orbProperties);
        orb = started;
        undo.push(() -> {
            started.shutdown(true);
            started.destroy();
        });
    }

    /** The servant, with its write guard, and its subscribers' metrics. */
    void createServant() {
        final SecuritySettings security = configuration.security();
        servant = new LatencyServiceServant(loop, context.epochMillis(),
            new WriteGuard(security.policy(), CallerCapture.callers(orb), configuration.server().operatorCallsEnabled(),
                configuration.server().plannerCallsEnabled(), PolledConnections.of(configuration)),
            metrics, profileKeeper != null ? profileKeeper : loadedProfiles::save, stateSaver != null ? stateSaver : store::awaitSaved,
            context.subscriberCheckIntervalMillis());
        undo.push((AutoCloseable) servant::close);
        metrics.registerSubscribers(servant::subscriberCounts);
    }

    /**
     * The metrics endpoint, when asked for.
     *
     * @throws LaunchFailure {@link LaunchFailure.Kind#CANNOT_LISTEN} when its port cannot be listened on
     */
    void serveMetrics() throws LaunchFailure {
        final ServerSettings.Metrics configured = configuration.server().metrics();
        final String metricsHost = context.metricsPort() == null ? configured.address() : context.host();
        final int metricsListenPort = context.metricsPort() == null ? (configured.enabled() ? configured.port() : -1)
            : context.metricsPort();
        if (metricsListenPort < 0) {
            return;
        }
        try {
            metricsBound = metrics.serve(metricsHost, metricsListenPort);
        } catch (IOException e) {
            throw new LaunchFailure(LaunchFailure.Kind.CANNOT_LISTEN, "the metrics endpoint cannot listen on " + metricsHost
                + ":" + metricsListenPort + ": " + e.getMessage());
        }
        metricsUrl = "http://" + metricsHost + ":" + metricsBound + "/metrics";
        LOG.info("metrics at {}", metricsUrl);
    }

    /**
     * Starts the update thread (the servant hears the engine's changes), then the SNMP poller when anything is polled.
     *
     * @throws LaunchFailure {@link LaunchFailure.Kind#CONFIGURATION_REFUSED} when the poller refuses the configuration
     * @throws IOException   when the poller's socket cannot listen
     */
    void startLoopAndPoller() throws LaunchFailure, IOException {
        engine.addListener(servant.engineListener());
        loop.start();
        poller = startPoller(configuration, loop, metrics);
        if (poller != null) {
            undo.push(poller);
        }
    }

    /**
     * The SNMP poller, started, when anything is polled (at launch, or when a standby takes over).
     *
     * @return the poller, or null when nothing is polled
     * @throws LaunchFailure {@link LaunchFailure.Kind#CONFIGURATION_REFUSED} when the poller refuses the configuration
     * @throws IOException   when the poller's socket cannot listen
     */
    static SnmpPoller startPoller(final ServerConfiguration configuration, final EngineLoop loop, final ServerMetrics metrics)
        throws LaunchFailure, IOException {
        final SnmpPoller started;
        try {
            started = SnmpPoller.polls(configuration) ? SnmpPoller.forConfiguration(configuration,
                new EngineFeed(loop, metrics::snmpAnswerApplied, System::nanoTime)) : null;
        } catch (IllegalArgumentException e) {
            throw new LaunchFailure(LaunchFailure.Kind.CONFIGURATION_REFUSED, "the SNMP poller cannot start: " + e.getMessage());
        }
        if (started != null) {
            metrics.registerSnmpPoller(() -> SnmpPollerCounters.of(started));
            started.start();
        }
        return started;
    }

    /**
     * Activates the servant in the root POA, which opens the ORB's listening socket.
     *
     * @throws LaunchFailure {@link LaunchFailure.Kind#CANNOT_LISTEN} when the ORB's port cannot be had
     */
    void activateServant() throws LaunchFailure {
        activateServant(true);
    }

    /**
     * @param serving false for a standby: the reference exists and the port listens, but every request is discarded
     *                (the caller gets {@code TRANSIENT} and, resolving by name, finds the primary) until it takes over
     */
    void activateServant(final boolean serving) throws LaunchFailure {
        try {
            final POA rootPoa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
            poaManager = rootPoa.the_POAManager();
            if (serving) {
                poaManager.activate();
            } else {
                poaManager.discard_requests(false);
            }
            reference = rootPoa.servant_to_reference(new LatencyServicePOATie(servant));
        } catch (org.omg.CORBA.INITIALIZE e) {
            // JacORB opens its listening socket with the root POA; INITIALIZE is its word for a port it cannot have.
            throw new LaunchFailure(LaunchFailure.Kind.CANNOT_LISTEN, "cannot listen at " + context.host() + ":" + context.orbPort()
                + ": " + e.getMessage());
        } catch (org.omg.CORBA.UserException | RuntimeException e) {
            // RootPOA is always there and the servant is new: JacORB would be broken.
            throw new IllegalStateException("the ORB refused to activate the servant: " + e, e);
        }
    }
}
