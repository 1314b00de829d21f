package org.latencyserver.server.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jacorb.naming.NamingContextImpl;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.RunningComponent;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.server.metrics.NamingServiceMetrics;
import org.latencyserver.server.naming.NamingOperation;
import org.latencyserver.server.naming.NamingWritePolicy;
import org.latencyserver.server.security.Caller;
import org.latencyserver.server.security.CallerCapture;
import org.omg.CORBA.ORB;
import org.omg.CORBA.Policy;
import org.omg.CosNaming.NamingContextExtHelper;
import org.omg.PortableServer.IdAssignmentPolicyValue;
import org.omg.PortableServer.LifespanPolicyValue;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.omg.PortableServer.RequestProcessingPolicyValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running CORBA Naming Service (JacORB's naming contexts) at {@code corbaloc::HOST:PORT/NameService}:
 * {@link #launch} starts it from a {@link NamingServiceContext} in this JVM with an ORB of its own,
 * the way JacORB's {@code NameServer} sets itself up (a persistent POA {@code NameServer-POA} under
 * the implementation name {@code StandardNS}, the root context's object key mapped to
 * {@code NameService}); {@link #close} saves the bindings ({@link PersistedNamingContexts}) and
 * stops it. {@code NamingServiceMain} is this plus argument parsing.
 *
 * <p>With {@link NamingServiceContext#tls} and {@link NamingServiceContext#writePolicy} it also
 * listens for IIOP/TLS and its contexts are {@link GuardedNamingContext}s: reads stay open over
 * plain IIOP, changes need a writer's certificate over TLS ({@link NamingWriteGuard}). Without them
 * binds are open to any caller, as JacORB's and omniNames' are, and it says so at start. Either way
 * the contexts count the changes made, and with {@link NamingServiceContext#metrics} it serves them
 * and the refusals as Prometheus metrics ({@link NamingServiceMetrics}).
 *
 * <p>Limit: JacORB's {@code NamingContextImpl} keeps its ORB and root POA in static fields, so one
 * JVM runs one naming service at a time; a second {@code launch} while one runs is refused. A
 * server or any number of clients may share the JVM with it.
 *
 * <p>Thread-safety: {@link #close} is idempotent and may be called from any thread except an ORB
 * request thread.
 */
public final class NamingServiceNode extends RunningComponent {

    /** Set while a naming service runs in this JVM (see the class comment). */
    private static final AtomicBoolean RUNNING = new AtomicBoolean();
    /** JacORB's name server's implementation name and POA: its persistent object keys contain both. */
    private static final String IMPLEMENTATION_NAME = "StandardNS";
    private static final String POA_NAME = "NameServer-POA";
    private static final String ROOT_CONTEXT_ID = "_root";
    private static final Logger LOG = LoggerFactory.getLogger(NamingServiceNode.class);

    private final NamingServiceContext context;
    private final ORB orb;
    private final POA namingPoa;
    private final String rootIor;
    /** Who may change names (without a policy: anyone), and the changes' counts. */
    private final NamingWriteGuard guard;
    /** Null without a metrics endpoint. */
    private final NamingServiceMetrics metrics;
    private final String metricsUrl;
    private final int metricsPort;

    private NamingServiceNode(final NamingServiceContext context, final ORB orb, final POA namingPoa, final String rootIor,
                              final NamingWriteGuard guard, final NamingServiceMetrics metrics, final int metricsPort) {
        this.context = context;
        this.orb = orb;
        this.namingPoa = namingPoa;
        this.rootIor = rootIor;
        this.guard = guard;
        this.metrics = metrics;
        this.metricsPort = metricsPort;
        this.metricsUrl = metrics == null ? null : "http://" + context.metricsHost() + ":" + metricsPort + "/metrics";
    }

    /**
     * Starts a naming service; returns once it serves.
     *
     * @param context what to start; {@link NamingServiceContext#conclude() concluded} here
     * @return the running naming service
     * @throws LaunchFailure when the context is refused, one runs in this JVM already, or the database
     *                       directory cannot be created
     * @throws IOException   when the IOR file or ready file cannot be written
     */
    public static NamingServiceNode launch(final NamingServiceContext context) throws LaunchFailure, IOException {
        // A ready file of an earlier run names a naming service that is gone.
        ReadyFile.deleteQuietly(context.readyFile());
        context.conclude();
        if (!RUNNING.compareAndSet(false, true)) {
            throw new LaunchFailure(LaunchFailure.Kind.INVALID_CONTEXT, "a naming service runs in this JVM already (JacORB's"
                + " naming contexts keep their ORB in a static field: one at a time)");
        }
        final NamingServiceNode node;
        try {
            node = start(context);
        } catch (LaunchFailure | RuntimeException e) {
            RUNNING.set(false);
            throw e;
        }
        return startedOrClosed(node, NamingServiceNode::writeFiles);
    }

    /** Writes the IOR file and, last, the ready file: from then on it serves. */
    private void writeFiles() throws IOException {
        if (context.iorFile() != null) {
            OrbSupport.writeIor(context.iorFile(), rootIor);
        }
        readyFile().writeTo(context.readyFile());
    }

    private static NamingServiceNode start(final NamingServiceContext context) throws LaunchFailure {
        try {
            Files.createDirectories(context.databaseDirectory());
        } catch (IOException e) {
            throw new LaunchFailure(LaunchFailure.Kind.CANNOT_WRITE, "cannot create " + context.databaseDirectory() + ": "
                + e.getMessage());
        }
        final Properties properties = new Properties();
        properties.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        properties.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        properties.setProperty("OAIAddr", context.host());
        properties.setProperty("OAPort", Integer.toString(context.port()));
        properties.setProperty("jacorb.implname", IMPLEMENTATION_NAME);
        properties.setProperty("jacorb.orb.objectKeyMap.NameService", IMPLEMENTATION_NAME + "/" + POA_NAME + "/" + ROOT_CONTEXT_ID);
        properties.setProperty("jacorb.log.default.verbosity", "1");
        if (context.tlsStores() != null) {
            OrbSupport.withTlsServer(properties, context.tlsStores(), context.tlsPort());
            CallerCapture.register(properties);
            // JacORB connects ORBs of one JVM without a socket (its loopback acceptor): such a caller
            // has no TLS session to show a certificate, so every caller must come through a socket.
            properties.setProperty("jacorb.iiop.enable_loopback", "off");
        }
        ORB orb = null;
        NamingServiceMetrics metrics = null;
        try {
            orb = ORB.init(new String[0], properties);
            final POA rootPoa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
            final Policy[] policies = {
                rootPoa.create_id_assignment_policy(IdAssignmentPolicyValue.USER_ID),
                rootPoa.create_lifespan_policy(LifespanPolicyValue.PERSISTENT),
                rootPoa.create_request_processing_policy(RequestProcessingPolicyValue.USE_SERVANT_MANAGER),
            };
            final POA namingPoa = rootPoa.create_POA(POA_NAME, rootPoa.the_POAManager(), policies);
            for (final Policy policy : policies) {
                policy.destroy();
            }
            NamingContextImpl.init(orb, rootPoa);
            final byte[] rootId = ROOT_CONTEXT_ID.getBytes(StandardCharsets.ISO_8859_1);
            // Without a policy the guard checks nothing (and never asks who calls): it counts the changes.
            final NamingWriteGuard guard = new NamingWriteGuard(namingPoa, rootId, context.writePolicy(),
                context.writePolicy() == null ? () -> Caller.PLAIN : CallerCapture.callers(orb), System::nanoTime);
            namingPoa.set_servant_manager(new PersistedNamingContexts(context.databaseDirectory().toAbsolutePath(),
                ((org.jacorb.orb.ORB) orb).getConfiguration(), guard));
            rootPoa.the_POAManager().activate();
            final org.omg.CORBA.Object root = namingPoa.create_reference_with_id(rootId, NamingContextExtHelper.id());
            if (guard == null) {
                LOG.warn("naming service: binds are open to any caller (give --tls-keystore, --tls-truststore, --tls-port and"
                    + " --principals to check who binds)");
            } else {
                LOG.info("naming service: binds need IIOP/TLS at {} with a writer's certificate; reads stay open at {}",
                    context.tlsCorbaloc(), context.corbaloc());
            }
            int metricsPort = -1;
            if (context.metricsPort() != null) {
                metrics = new NamingServiceMetrics(guard::refusals, guard::writes);
                try {
                    metricsPort = metrics.serve(context.metricsHost(), context.metricsPort());
                } catch (IOException e) {
                    throw new LaunchFailure(LaunchFailure.Kind.CANNOT_LISTEN, "the metrics endpoint cannot listen on "
                        + context.metricsHost() + ":" + context.metricsPort() + ": " + e.getMessage());
                }
                LOG.info("naming service: metrics at http://{}:{}/metrics", context.metricsHost(), metricsPort);
            }
            return new NamingServiceNode(context, orb, namingPoa, orb.object_to_string(root), guard, metrics, metricsPort);
        } catch (LaunchFailure e) {
            closeQuietly(metrics);
            stop(orb);
            throw e;
        } catch (org.omg.CORBA.INITIALIZE e) {
            // JacORB's word for a port it cannot listen on (taken, or not this host's address).
            stop(orb);
            throw new LaunchFailure(LaunchFailure.Kind.CANNOT_LISTEN, "cannot listen at " + context.host() + ":" + context.port()
                + ": " + e.getMessage());
        } catch (org.omg.CORBA.UserException | RuntimeException e) {
            closeQuietly(metrics);
            stop(orb);
            throw new IllegalStateException("the ORB refused to set up the naming service: " + e, e);
        }
    }

    private static void closeQuietly(final NamingServiceMetrics metrics) {
        if (metrics != null) {
            metrics.close();
        }
    }

    private static void stop(final ORB orb) {
        if (orb != null) {
            orb.shutdown(true);
            orb.destroy();
        }
    }

    /** @return how components reach it: {@code corbaloc::HOST:PORT/NameService} */
    public String corbaloc() {
        return context.corbaloc();
    }

    /** @return how writers reach it over IIOP/TLS ({@code corbaloc:ssliop:1.2@HOST:TLSPORT/NameService}); null without TLS */
    public String tlsCorbaloc() {
        return context.tlsCorbaloc();
    }

    /** @return the changes refused so far, by kind (all zero when binds are open) */
    public java.util.Map<NamingWritePolicy.RefusalKind, Long> refusals() {
        return guard.refusals();
    }

    /** @return the changes made so far, by operation (the calls a compound name makes on its behalf not counted again) */
    public java.util.Map<NamingOperation, Long> writes() {
        return guard.writes();
    }

    /** @return the metrics endpoint's URL ({@code http://HOST:PORT/metrics}), when it serves one */
    public java.util.Optional<String> metricsUrl() {
        return java.util.Optional.ofNullable(metricsUrl);
    }

    /** @return the root naming context's stringified reference */
    public String rootIor() {
        return rootIor;
    }

    /** @return its ready file's content: the rows of {@code docs/ready-files.md} for {@code naming-service} */
    @Override
    public ReadyFile.Builder readyFile() {
        final ReadyFile.Builder ready = ReadyFile.of(Component.NAMING_SERVICE).reference("naming", context.corbaloc())
            .port("naming", context.port());
        if (context.tlsStores() != null) {
            ready.reference("naming-tls", context.tlsCorbaloc()).port("naming-tls", context.tlsPort());
        }
        if (metricsUrl != null) {
            ready.port("metrics", metricsPort).url("metrics", metricsUrl);
        }
        return ready;
    }

    /**
     * Saves every naming context's bindings (the POA etherealizes them), stops the ORB (releasing
     * its port) and deletes the ready file.
     */
    @Override
    protected void stop() {
        try {
            closeQuietly(metrics);
            namingPoa.destroy(true, true);
            orb.shutdown(true);
            orb.destroy();
        } finally {
            RUNNING.set(false);
            ReadyFile.deleteQuietly(context.readyFile());
        }
    }
}
