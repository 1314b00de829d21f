package org.latencyserver.server.launch;

import java.nio.file.Path;
import org.latencyserver.orb.NameKeeper;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.latencyserver.idl.latency.LatencyServicePOATie;
import org.latencyserver.server.config.ConfigurationException;
import org.latencyserver.server.config.ConfigurationLoader;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.config.ServerSettings;
import org.latencyserver.server.config.SecuritySettings;
import org.latencyserver.orb.TlsStores;
import org.latencyserver.server.corba.LatencyServiceServant;
import org.latencyserver.server.corba.WriteGuard;
import org.latencyserver.server.logging.RepeatedWarningFilter;
import org.latencyserver.server.security.CallerCapture;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.persistence.LoadedProfiles;
import org.latencyserver.server.persistence.StateStore;
import org.latencyserver.server.snmp.EngineFeed;
import org.latencyserver.server.snmp.SnmpPoller;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./latency server}: loads the configuration, starts the update thread and serves
 * {@code Latserv} / {@code LatencyService} over JacORB; writes its IOR to a file and, when a
 * naming service is given, registers under the configured name. When any workstation or switch
 * port has {@code mib_source: snmp} it starts the SNMP poller ({@code org.latencyserver.server.snmp}),
 * whose secrets come from the environment variables the configuration names.
 *
 * <p>Exit codes: 0 after a clean stop, 1 a bad configuration (every fault printed), 2 usage, or a
 * naming service given with {@code --naming} that cannot be reached or refuses the name (one line
 * on stderr; no IOR file is written then). Once registered, the name is kept bound ({@link NameKeeper}):
 * a naming service restarted without its bindings has it again within seconds.
 */
@Command(name = "server", mixinStandardHelpOptions = true, version = "latency server 0.1.0",
    description = "Run the Latency Server.")
public final class ServerMain implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(ServerMain.class);

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The YAML configuration.")
    private Path config;

    @Option(names = "--ior-file", paramLabel = "PATH", description = "Write the server's IOR here (default: latency-server.ior).")
    private Path iorFile = Path.of("latency-server.ior");

    @Option(names = "--naming", paramLabel = "REF",
        description = "Register in this naming service, e.g. corbaloc::127.0.0.1:2809/NameService.")
    private String naming;

    @Option(names = "--host", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    private String host = "127.0.0.1";

    @Option(names = "--metrics-port",
        description = "Prometheus metrics at this port, overriding the configuration's server.metrics; 0 for any free port, -1 for none.")
    private Integer metricsPort;

    @Option(names = "--port", description = "Port to listen on; 0 for any free port (default: ${DEFAULT-VALUE}).")
    private int port;

    private final CountDownLatch stopped = new CountDownLatch(1);

    /** At most one log line per kind of repeated warning per this interval. */
    private static final long REPEATED_WARNING_INTERVAL_MILLIS = 10_000;

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new ServerMain()).execute(args));
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

    @Override
    public Integer call() throws Exception {
        // An IOR file of an earlier run names a server that is gone: a start that fails leaves none.
        java.nio.file.Files.deleteIfExists(iorFile);
        final ServerConfiguration configuration;
        try {
            configuration = ConfigurationLoader.load(config);
        } catch (ConfigurationException e) {
            System.err.println("latency server: the configuration is refused:");
            System.err.println(e.getMessage());
            return 1;
        }
        final List<ConnectionRow> rows = new ArrayList<>();
        final long now = System.currentTimeMillis();
        for (final ConnectionSpec spec : configuration.connectionSpecs()) {
            rows.add(ConnectionRow.initial(spec, now));
        }
        final SecureRandom random = new SecureRandom();
        // Profiles a planner loaded before a restart win over the configured files of the same name.
        final LoadedProfiles loadedProfiles = new LoadedProfiles(configuration.server().stateFile());
        final java.util.Map<String, org.latencyserver.core.profile.Profile> profiles = new java.util.HashMap<>(configuration.profiles());
        profiles.putAll(loadedProfiles.restore(configuration.limits().profileLimits(), configuration.connectionSpecs()));
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(rows), java.util.Map.copyOf(profiles),
            configuration.engine(), configuration.limits(), random::nextLong, System::currentTimeMillis);
        final StateStore store = new StateStore(configuration.server().stateFile(), engine.table(),
            configuration.limits().maxHistogramBins());
        store.restoreInto(engine, System.nanoTime());
        engine.addListener(store);
        store.start(100);
        final EngineLoop loop = new EngineLoop(engine, System::nanoTime, 50_000_000L);
        final ServerMetrics metrics = new ServerMetrics(engine.table(), loop::commandErrors, System::nanoTime);
        metrics.registerProbes(engine::probeRoundTrips);
        metrics.registerStateStore(store::changesSeen, store::journalAppends, store::journalBytes, store::snapshots,
            store::snapshotBytes);
        metrics.registerProfileDrift(loop.query()::profileDrifts);
        final RepeatedWarningFilter repeatedWarnings = RepeatedWarningFilter.install(REPEATED_WARNING_INTERVAL_MILLIS);
        if (repeatedWarnings != null) {
            metrics.registerLogFilter(repeatedWarnings::poolExhausted, repeatedWarnings::suppressed);
        }
        final SecuritySettings security = configuration.security();
        // Pool, queue and connection settings for many callers: see OrbSupport.withServerTuning.
        final java.util.Properties orbProperties = OrbSupport.withServerTuning(
            CallerCapture.register(OrbSupport.properties(host, port, 2_000)));
        if (security.tls() != null) {
            final SecuritySettings.Tls tls = security.tls();
            try {
                OrbSupport.withTlsServer(orbProperties, TlsStores.fromEnvironment(tls.keystore(), tls.truststore(), tls.passwordEnv()),
                    tls.port());
            } catch (IllegalArgumentException e) {
                System.err.println("latency server: security.tls: " + e.getMessage());
                loop.close();
                store.close();
                metrics.close();
                return 1;
            }
        }
        final ORB orb = OrbSupport.init(new String[0], orbProperties);
        final LatencyServiceServant servant = new LatencyServiceServant(loop, System::currentTimeMillis,
            new WriteGuard(security.policy(), CallerCapture.callers(orb), configuration.server().operatorCallsEnabled(),
                configuration.server().plannerCallsEnabled(), PolledConnections.of(configuration)),
            metrics, loadedProfiles::save, store::awaitSaved);
        announceSecurity(security);
        final ServerSettings.Metrics configured = configuration.server().metrics();
        final String metricsHost = metricsPort == null ? configured.address() : host;
        final int metricsListenPort = metricsPort == null ? (configured.enabled() ? configured.port() : -1) : metricsPort;
        if (metricsListenPort >= 0) {
            final int bound = metrics.serve(metricsHost, metricsListenPort);
            LOG.info("metrics at http://{}:{}/metrics", metricsHost, bound);
        }
        engine.addListener(servant.engineListener());
        loop.start();
        final SnmpPoller poller;
        try {
            poller = SnmpPoller.polls(configuration) ? SnmpPoller.forConfiguration(configuration, new EngineFeed(loop)) : null;
        } catch (IllegalArgumentException e) {
            System.err.println("latency server: the SNMP poller cannot start: " + e.getMessage());
            loop.close();
            store.close();
            metrics.close();
            return 1;
        }
        if (poller != null) {
            metrics.registerSnmpPoller(poller::requestsSent, poller::answersReceived, poller::pollsSkipped, poller::sourcesUp);
            poller.start();
        }

        final POA rootPoa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        rootPoa.the_POAManager().activate();
        final org.omg.CORBA.Object reference = rootPoa.servant_to_reference(new LatencyServicePOATie(servant));
        final String ior = orb.object_to_string(reference);
        final Runnable stopServing = () -> {
            servant.close();
            if (poller != null) {
                poller.close();
            }
            loop.close();
            store.close();
            metrics.close();
            orb.shutdown(false);
        };
        final NameKeeper nameKeeper;
        try {
            nameKeeper = naming == null ? null
                : NameKeeper.bind(orb, naming, configuration.server().name(), reference, NameKeeper.DEFAULT_CHECK_INTERVAL_MILLIS);
        } catch (References.ReferenceException e) {
            System.err.println("latency server: cannot register as '" + configuration.server().name() + "': " + e.getMessage()
                + "; " + NameKeeper.WHAT_TO_DO + ".");
            stopServing.run();
            return 2;
        }
        if (nameKeeper != null) {
            LOG.info("registered as '{}' in {}", configuration.server().name(), naming);
        }
        // Only now: a server that could not register leaves no IOR file pointing at it.
        OrbSupport.writeIor(iorFile, ior);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("stopping");
            if (nameKeeper != null) {
                nameKeeper.close();
            }
            stopServing.run();
            stopped.countDown();
        }, "latency-shutdown"));
        LOG.info("Latency Server '{}' serving {} connections ({} profiles) on {}; IOR in {}", configuration.server().name(),
            rows.size(), configuration.profiles().size(), host, iorFile.toAbsolutePath());
        orb.run();
        stopped.await();
        return 0;
    }
}
