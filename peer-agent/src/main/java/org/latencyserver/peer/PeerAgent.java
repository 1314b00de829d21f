package org.latencyserver.peer;

import java.io.IOException;
import java.nio.file.Files;
import org.latencyserver.idl.latency.EchoPeerPOATie;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.RunningComponent;
import org.latencyserver.orb.CertificateExpiryWarning;
import org.latencyserver.orb.NameKeeper;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.omg.CORBA.ORB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running peer agent: the {@code EchoPeer} object, its optional plain TCP and UDP echoes, its IOR
 * file and its binding as {@code peers/NODE} (kept by a {@link NameKeeper}). Start one with
 * {@link #launch(PeerAgentContext)}, in a test's JVM as in {@link PeerAgentMain}'s; stop it with
 * {@link #close()}.
 *
 * <p>Thread-safe.
 */
public final class PeerAgent extends RunningComponent {
    private static final Logger LOG = LoggerFactory.getLogger(PeerAgent.class);

    private final PeerAgentContext context;
    private final ORB orb;
    private final EchoPeerServant servant = new EchoPeerServant();
    private String ior;
    private SocketEcho sockets;
    private NameKeeper nameKeeper;
    /** The own certificate's expiry check, with --tls-keystore only. */
    private CertificateExpiryWarning expiryWarning;
    /** Whether {@link #launch} completed: a start that failed has nothing to report at close. */
    private boolean serving;

    private PeerAgent(PeerAgentContext context, ORB orb) {
        this.context = context;
        this.orb = orb;
    }

    /**
     * Validates the context and serves: the echo object, the socket echoes, the naming-service
     * binding and, last, the IOR file (a peer agent that did not start leaves no IOR file pointing at it).
     *
     * @param context what to run
     * @return the running peer agent
     * @throws IllegalArgumentException when the context is not valid (naming the setting)
     * @throws IOException when a port cannot be bound or the IOR file cannot be written
     * @throws References.ReferenceException when the naming service cannot be reached or refuses the name
     */
    public static PeerAgent launch(PeerAgentContext context) throws IOException {
        context.validate();
        if (context.iorFile() != null) {
            // An IOR file of an earlier run names a peer that is gone.
            Files.deleteIfExists(context.iorFile());
        }
        java.util.Properties properties = OrbSupport.properties(context.host(), context.corbaPort(),
                PeerAgentContext.REPLY_TIMEOUT_MILLIS);
        if (context.tlsPort() >= 0) {
            // Plain and TLS listeners on one ORB; outgoing calls (the naming service) use TLS where the target asks.
            OrbSupport.withTlsServer(properties, context.namingTls(), context.tlsPort());
            // A caller in this JVM would otherwise be served in-process, past TLS and its certificate check.
            properties.setProperty("jacorb.iiop.enable_loopback", "off");
        } else if (context.namingTls() != null) {
            OrbSupport.withTlsWhereAsked(properties, context.namingTls());
        }
        ORB orb = OrbSupport.init(new String[0], properties);
        return startedOrClosed(new PeerAgent(context, orb), PeerAgent::start);
    }

    private synchronized void start() throws IOException {
        org.omg.CORBA.Object reference = OrbSupport.serveOnRootPoa(orb, new EchoPeerPOATie(servant),
                "the ORB's root POA cannot serve the echo object");
        ior = orb.object_to_string(reference);
        sockets = SocketEcho.start(context.host(), context.tcpPort(), context.udpPort());
        if (context.naming() != null) {
            nameKeeper = NameKeeper.bind(orb, context.naming(), context.registeredName(), reference,
                    NameKeeper.DEFAULT_CHECK_INTERVAL_MILLIS);
        }
        if (context.iorFile() != null) {
            try {
                OrbSupport.writeIor(context.iorFile(), ior);
            } catch (IOException e) {
                throw new IOException("cannot write " + context.iorFile() + ": " + e.getMessage(), e);
            }
        }
        OrbSupport.runInBackground(orb, "peer-agent-orb");
        // A WARN at start and daily in the certificate's last 30 days: pinning agents refuse an expired one.
        expiryWarning = context.namingTls() == null ? null : CertificateExpiryWarning.start(context.namingTls());
        serving = true;
    }

    /** @return the echo object's IOR */
    public synchronized String ior() {
        return ior;
    }

    /** @return the plain TCP echo's port, or -1 when there is none */
    public synchronized int tcpPort() {
        return sockets == null ? -1 : sockets.tcpPort();
    }

    /** @return the UDP echo's port, or -1 when there is none */
    public synchronized int udpPort() {
        return sockets == null ? -1 : sockets.udpPort();
    }

    /** @return the port of its IIOP/TLS listener, or -1 when it serves no TLS */
    public synchronized int tlsPort() {
        return context.tlsPort() < 0 || ior == null ? -1 : ((org.jacorb.orb.ORB) orb).getBasicAdapter().getSSLPort();
    }

    /** @return how many CORBA echoes it has answered */
    public long echoCount() {
        return servant.echoCount();
    }

    /**
     * With a certificate: told when a renewed one is read ({@link CertificateExpiryWarning#onCertificateChange}), as the
     * ready file's {@code tls_certificate_expires} changes then.
     */
    @Override
    public synchronized void onReadyFileChange(final Runnable changed) {
        if (expiryWarning != null) {
            expiryWarning.onCertificateChange(changed);
        }
    }

    /**
     * @return its ready file's content as {@code docs/ready-files.md} lists it: the reference
     *         {@code peer}, the ports {@code tcp}, {@code udp} and {@code tls} (its IIOP/TLS listener) when on, the file
     *         {@code ior}, and the facts {@code node}, {@code name} (with a naming service) and, with a certificate
     *         ({@code --tls-keystore}), {@code tls_certificate_expires} (its notAfter, ISO-8601)
     */
    @Override
    public synchronized ReadyFile.Builder readyFile() {
        ReadyFile.Builder ready = ReadyFile.of(Component.PEER_AGENT).reference("peer", ior).fact("node", context.node());
        if (tcpPort() >= 0) {
            ready.port("tcp", tcpPort());
        }
        if (udpPort() >= 0) {
            ready.port("udp", udpPort());
        }
        if (tlsPort() >= 0) {
            ready.port("tls", tlsPort());
        }
        if (expiryWarning != null) {
            ready.fact(CertificateExpiryWarning.READY_FACT, expiryWarning.expires());
        }
        if (context.iorFile() != null) {
            ready.file("ior", context.iorFile());
        }
        if (context.naming() != null) {
            ready.fact("name", context.registeredName());
        }
        return ready;
    }

    /** Stops keeping the name, the socket echoes and the ORB. */
    @Override
    protected void stop() {
        if (serving) {
            LOG.info("peer-agent {} stopping after {} echoes", context.node(), servant.echoCount());
        }
        if (nameKeeper != null) {
            nameKeeper.close();
        }
        if (expiryWarning != null) {
            expiryWarning.close();
        }
        if (sockets != null) {
            try {
                sockets.close();
            } catch (IOException e) {
                LOG.warn("closing the socket echo: {}", e.getMessage());
            }
        }
        orb.shutdown(false);
    }
}
