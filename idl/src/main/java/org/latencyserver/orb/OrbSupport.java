package org.latencyserver.orb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.omg.PortableServer.Servant;

/**
 * JacORB start-up shared by the launchers: the properties that select JacORB on Java 17, bind
 * to a given host and port, and bound how long a call to a callback may hang.
 */
public final class OrbSupport {

    private OrbSupport() {
    }

    /**
     * @param host            address to listen on, e.g. 127.0.0.1
     * @param port            port to listen on; 0 for any free port
     * @param replyTimeoutMillis how long an outgoing call (a subscriber callback) may wait for its reply
     * @return the ORB properties
     */
    public static Properties properties(final String host, final int port, final long replyTimeoutMillis) {
        final Properties properties = new Properties();
        properties.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        properties.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        properties.setProperty("OAIAddr", host);
        if (port > 0) {
            properties.setProperty("OAPort", Integer.toString(port));
        }
        properties.setProperty("jacorb.connection.client.pending_reply_timeout", Long.toString(replyTimeoutMillis));
        properties.setProperty("jacorb.retries", "0");
        properties.setProperty("jacorb.log.default.verbosity", "1");
        return properties;
    }

    /**
     * The system property that, set to {@code off}, makes {@link #withServerTuning} change nothing:
     * the server then runs on JacORB's defaults (for comparison, or to rule the tuning out).
     */
    public static final String TUNING_SWITCH = "latencyserver.orb.tuning";

    /**
     * The request pool of {@link #withServerTuning}: fixed, two threads per caller for 64 callers.
     * A pool thread is busy from the moment the POA takes a call off its queue until it has written
     * the reply and gone back to the pool; a caller that has its reply may send its next call
     * before the thread that answered the last one is back, so one caller can hold two threads for
     * a moment. At 64 callers on a loaded machine a pool of 96 (1.5 per caller) still ran dry once
     * in 4 s in one run (never in another); one of 32, 1,820 times in 4 s and 4,436 in 9 s.
     */
    public static final int REQUEST_THREADS = 128;

    /**
     * The server's ORB settings for many concurrent callers (measured in {@code docs/benchmarks.md},
     * RequestStatus harness; explained in {@code docs/operator-guide.md}, ORB settings for many
     * callers):
     * <ul>
     *   <li>{@code jacorb.poa.thread_pool_min} = {@code jacorb.poa.thread_pool_max} =
     *       {@value #REQUEST_THREADS}: a fixed request pool. JacORB's default pool (min 5, max 20)
     *       creates and retires threads continually under concurrent callers, and that churn, not
     *       the calls, limited the server (64 callers got 0.7 × the calls/s of 8, and an open-loop
     *       load of half the capacity queued for hundreds of ms). A pool smaller than the calls in
     *       progress runs dry ("Thread pool exhausted") and the rest wait in the POA's queue; see
     *       {@link #REQUEST_THREADS} for the size. Idle pool threads only wait.</li>
     * </ul>
     * Tried and not kept, because they measured no better (same run, same harness):
     * {@code jacorb.poa.queue_max}/{@code queue_min} (the queue never holds more calls than there
     * are callers, so JacORB's 100 is not reached at 64; beyond 100 queued calls JacORB answers
     * TRANSIENT), {@code jacorb.poa.thread_priority} (HotSpot on Linux ignores Java thread
     * priorities by default), {@code jacorb.poa.thread_pool_shared} (the server has one POA with
     * calls, so there is nothing to share), a pool that grows and shrinks up to 96 (slower than the
     * default pool: the churn again).
     *
     * <p>Each value is set only when the same key is not given as a system property ({@code -D…},
     * e.g. in {@code JAVA_OPTS}), so an operator overrides any of them (JacORB itself would let the
     * properties given here win over {@code -D}). With {@code -D}{@value #TUNING_SWITCH}{@code =off}
     * nothing is set: JacORB's defaults.
     *
     * @param properties from {@link #properties}; changed in place
     * @return {@code properties}
     */
    public static Properties withServerTuning(final Properties properties) {
        if ("off".equalsIgnoreCase(System.getProperty(TUNING_SWITCH, "").strip())) {
            return properties;
        }
        setUnlessOverridden(properties, "jacorb.poa.thread_pool_min", Integer.toString(REQUEST_THREADS));
        setUnlessOverridden(properties, "jacorb.poa.thread_pool_max", Integer.toString(REQUEST_THREADS));
        return properties;
    }

    /**
     * The request pool of {@link #withListenerTuning}: fixed, for the pushes of four servers with up
     * to four calls in flight each (a server sends an estimate subscriber at most four at once).
     */
    public static final int LISTENER_REQUEST_THREADS = 16;

    /**
     * The ORB settings of a process that receives the servers' pushes (an {@code EstimateListener}:
     * the mirror, the console, an application): a fixed request pool of
     * {@value #LISTENER_REQUEST_THREADS} ({@code jacorb.poa.thread_pool_min} = {@code thread_pool_max}).
     * JacORB's default pool (min 5, max 20) retires the threads beyond its minimum as soon as they are
     * idle and starts new ones for the next calls: with pushes of four servers, four calls in flight
     * each, a listener started and retired a thread for about every fifth call in a mass change
     * (about 960 threads in 5 s), which made every push wait ({@code docs/benchmarks.md}, at scale).
     * Overrides and the switch {@value #TUNING_SWITCH} as for {@link #withServerTuning}.
     *
     * @param properties from {@link #properties}; changed in place
     * @return {@code properties}
     */
    public static Properties withListenerTuning(final Properties properties) {
        if ("off".equalsIgnoreCase(System.getProperty(TUNING_SWITCH, "").strip())) {
            return properties;
        }
        setUnlessOverridden(properties, "jacorb.poa.thread_pool_min", Integer.toString(LISTENER_REQUEST_THREADS));
        setUnlessOverridden(properties, "jacorb.poa.thread_pool_max", Integer.toString(LISTENER_REQUEST_THREADS));
        return properties;
    }

    private static void setUnlessOverridden(final Properties properties, final String key, final String value) {
        if (System.getProperty(key) == null) {
            properties.setProperty(key, value);
        }
    }

    /**
     * Adds IIOP over TLS for incoming calls beside plain IIOP: the reference then carries both
     * addresses. The server asks every TLS caller for a certificate but requires none
     * ({@code required_options=0}), because JacORB would otherwise advertise no plain address and
     * thesis clients could not read; who may write is decided per call from the caller's
     * certificate (see the server's {@code security} package).
     *
     * @param properties from {@link #properties}; changed in place
     * @param stores     the server's certificate and the authorities it trusts
     * @param tlsPort    TLS port; 0 for any free port
     * @return {@code properties}
     */
    public static Properties withTlsServer(final Properties properties, final TlsStores stores, final int tlsPort) {
        withTls(properties, stores);
        if (tlsPort > 0) {
            properties.setProperty("OASSLPort", Integer.toString(tlsPort));
        }
        // Hex bit masks: 0x20 EstablishTrustInTarget, 0x40 EstablishTrustInClient.
        properties.setProperty("jacorb.security.ssl.server.supported_options", "60");
        properties.setProperty("jacorb.security.ssl.server.required_options", "0");
        // Outgoing calls of a server (naming service, callbacks) stay plain unless the target requires TLS.
        properties.setProperty("jacorb.security.ssl.client.supported_options", "60");
        properties.setProperty("jacorb.security.ssl.client.required_options", "0");
        return properties;
    }

    /**
     * Makes every outgoing call of this ORB use TLS with a client certificate. Such an ORB cannot
     * reach a plain-only object (the naming service, a peer agent), so a writer keeps one ORB for
     * those and uses this one only for the server: see {@link ServerRoute}.
     *
     * @param properties from {@link #properties}; changed in place
     * @param stores     this client's certificate and the authorities it trusts
     * @return {@code properties}
     */
    public static Properties withTlsClient(final Properties properties, final TlsStores stores) {
        withTls(properties, stores);
        properties.setProperty("jacorb.security.ssl.client.supported_options", "60");
        // JacORB chooses TLS only when the client or the target requires it; the server requires none.
        properties.setProperty("jacorb.security.ssl.client.required_options", "20");
        return properties;
    }

    /**
     * Lets this ORB make IIOP/TLS calls, with its certificate, to the targets that ask for TLS — a
     * naming service reached as {@code corbaloc:ssliop:1.2@HOST:TLSPORT/NameService} — while every
     * other call stays plain and it serves plain IIOP only (no TLS listener): how a peer agent binds
     * its name in a naming service that checks who binds.
     *
     * @param properties from {@link #properties}; changed in place
     * @param stores     this process's certificate and the authorities it trusts
     * @return {@code properties}
     */
    public static Properties withTlsWhereAsked(final Properties properties, final TlsStores stores) {
        withTls(properties, stores);
        properties.setProperty("jacorb.security.ssl.client.supported_options", "60");
        properties.setProperty("jacorb.security.ssl.client.required_options", "0");
        properties.setProperty("jacorb.security.ssl.server.supported_options", "0");
        properties.setProperty("jacorb.security.ssl.server.required_options", "0");
        return properties;
    }

    private static void withTls(final Properties properties, final TlsStores stores) {
        properties.setProperty("jacorb.security.support_ssl", "on");
        // Connections present the stores in force, re-read when they change (ReloadingTlsStores).
        final ReloadingTlsStores reloading = ReloadingTlsStores.shared(stores);
        ReloadingSslSocketFactory.installIn(properties, reloading);
        ReloadingSslListenerFactory.installIn(properties, reloading);
        properties.setProperty("jacorb.security.keystore", stores.keystore().toAbsolutePath().toString());
        properties.setProperty("jacorb.security.keystore_password", stores.password());
        // Java 17's JKS loader reads the PKCS#12 files keytool makes; JacORB's PKCS12 type path
        // silently yields an empty store.
        properties.setProperty("jacorb.security.keystore_type", "JKS");
        properties.setProperty("jacorb.security.truststore", stores.truststore().toAbsolutePath().toString());
        properties.setProperty("jacorb.security.truststore_password", stores.password());
        properties.setProperty("jacorb.security.truststore_type", "JKS");
    }

    /**
     * @param args       ORB command-line arguments (may be empty)
     * @param properties from {@link #properties}
     * @return an initialised JacORB ORB
     */
    public static ORB init(final String[] args, final Properties properties) {
        return ORB.init(args, properties);
    }

    /**
     * Serves a servant on the ORB's root POA, activating the POA manager: how a component offers
     * its one object (an echo, or the callback the server pushes to).
     *
     * @param orb      the component's ORB
     * @param servant  the object's servant
     * @param whenRefused what to say when the ORB refuses, e.g. {@code the mirror's ORB cannot serve its callback object}
     * @return the object's reference
     * @throws IllegalStateException {@code WHENREFUSED: REASON} when the ORB refuses
     */
    public static org.omg.CORBA.Object serveOnRootPoa(final ORB orb, final Servant servant, final String whenRefused) {
        try {
            final POA rootPoa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
            rootPoa.the_POAManager().activate();
            return rootPoa.servant_to_reference(servant);
        } catch (org.omg.CORBA.UserException e) {
            throw new IllegalStateException(whenRefused + ": " + e, e);
        }
    }

    /**
     * The port an ORB's plain IIOP listener is bound to: the port its objects' references publish, the one a
     * firewall must let the server reach for a callback object (with {@link #properties}' port 0, the free one the ORB got).
     *
     * @param orb a JacORB ORB that serves, or is to serve, objects: one that does not listen yet starts listening
     * @return the port
     * @throws IllegalStateException when the ORB has no root POA
     */
    public static int listenPort(final ORB orb) {
        try {
            orb.resolve_initial_references("RootPOA"); // the root POA's creation starts the listener
        } catch (org.omg.CORBA.ORBPackage.InvalidName e) {
            throw new IllegalStateException("the ORB has no root POA: " + e, e);
        }
        return ((org.jacorb.orb.ORB) orb).getBasicAdapter().getPort();
    }

    /**
     * Runs the ORB's request loop on a daemon thread: the component's {@code close()} ends the
     * ORB, and a daemon thread never keeps a JVM alive whose main has finished.
     *
     * @param orb        the ORB
     * @param threadName the thread's name, e.g. {@code mirror-orb}
     */
    public static void runInBackground(final ORB orb, final String threadName) {
        final Thread orbThread = new Thread(orb::run, threadName);
        orbThread.setDaemon(true);
        orbThread.start();
    }

    /**
     * Writes an IOR atomically, so that a reader polling for the file never reads half of it.
     *
     * @param file the IOR file
     * @param ior  the stringified reference
     * @throws IOException when it cannot be written
     */
    public static void writeIor(final Path file, final String ior) throws IOException {
        final Path absolute = file.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
        final Path temporary = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".tmp");
        Files.writeString(temporary, ior + System.lineSeparator(), StandardCharsets.US_ASCII);
        Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
