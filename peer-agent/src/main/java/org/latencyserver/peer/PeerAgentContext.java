package org.latencyserver.peer;

import static org.latencyserver.launch.ContextChecks.requireNonBlank;
import static org.latencyserver.launch.ContextChecks.requirePort;

import java.nio.file.Path;

/**
 * What one {@link PeerAgent} runs: its node name, where it listens (CORBA, optionally CORBA over TLS,
 * and optionally plain TCP and UDP echo), where it writes its IOR and which naming service it registers in. Set with the
 * fluent setters, then {@link PeerAgent#launch(PeerAgentContext) launch}: launching validates first.
 *
 * <p>Ports: 0 means any free port; -1 (TCP and UDP only) means no such endpoint.
 *
 * <p>Not thread-safe: configure it on one thread, then launch it; do not change it afterwards.
 */
public final class PeerAgentContext {
    /** How long a CORBA call through this agent's ORB may wait for its reply, in milliseconds. */
    static final long REPLY_TIMEOUT_MILLIS = 10_000;

    private String node;
    private Path iorFile;
    private String naming;
    private String host = "127.0.0.1";
    private int corbaPort;
    private int tcpPort = -1;
    private int udpPort = -1;
    private org.latencyserver.orb.TlsStores namingTls;
    private int tlsPort = -1;

    /** @return this, as the peer workstation's node name (as the server's configuration names it, e.g. ws2) */
    public PeerAgentContext node(String node) {
        this.node = node;
        return this;
    }

    /** @return this, writing the echo object's IOR to this file once it serves (null: no file) */
    public PeerAgentContext iorFile(Path iorFile) {
        this.iorFile = iorFile;
        return this;
    }

    /** @return this, registering as {@code peers/NODE} in this naming service (corbaloc or IOR; null: none) */
    public PeerAgentContext naming(String naming) {
        this.naming = naming;
        return this;
    }

    /**
     * @return this, binding its name over IIOP/TLS with these stores (its certificate, {@code OU=peer,CN=NODE})
     *         when the naming service asks for TLS ({@code --naming corbaloc:ssliop:1.2@HOST:TLSPORT/NameService});
     *         null: plain IIOP only
     */
    public PeerAgentContext namingTls(org.latencyserver.orb.TlsStores stores) {
        this.namingTls = stores;
        return this;
    }

    /**
     * @return this, also serving the echo object over IIOP/TLS on this port (0: any free port; -1: not, the default), with
     *         the certificate of {@link #namingTls} (its peer certificate, {@code OU=peer,CN=NODE}): what client agents that
     *         pin their peers ({@code --pin-peers}) measure over. The reference (IOR file, naming service) then carries both
     *         addresses; a caller's certificate is asked for but not required.
     */
    public PeerAgentContext tlsPort(int tlsPort) {
        this.tlsPort = tlsPort;
        return this;
    }

    /** @return this, listening on this address (default 127.0.0.1) */
    public PeerAgentContext host(String host) {
        this.host = host;
        return this;
    }

    /** @return this, with the CORBA port (0: any free port, the default) */
    public PeerAgentContext corbaPort(int corbaPort) {
        this.corbaPort = corbaPort;
        return this;
    }

    /** @return this, also echoing over plain TCP on this port (0: any free port; -1: none, the default) */
    public PeerAgentContext tcpPort(int tcpPort) {
        this.tcpPort = tcpPort;
        return this;
    }

    /** @return this, also echoing over UDP on this port (0: any free port; -1: none, the default) */
    public PeerAgentContext udpPort(int udpPort) {
        this.udpPort = udpPort;
        return this;
    }

    /**
     * Checks the settings.
     *
     * @return this
     * @throws IllegalArgumentException naming the setting (as its command-line option) and the bad value
     */
    public PeerAgentContext validate() {
        if (node == null || node.isBlank() || !node.equals(node.strip()) || node.contains("/")) {
            throw new IllegalArgumentException("--name must be a node name without spaces or '/', was '" + node + "'");
        }
        requireNonBlank("--host", host, "be an address to listen on");
        requirePort("--port", corbaPort, 0);
        requirePort("--tcp-port", tcpPort, -1);
        requirePort("--udp-port", udpPort, -1);
        requirePort("--tls-port", tlsPort, -1);
        if (tlsPort >= 0 && namingTls == null) {
            throw new IllegalArgumentException("--tls-port " + tlsPort + " serves over TLS with this peer's certificate: give"
                + " --tls-keystore (peer-" + node + ".p12 of ./latency certs --peer " + node + ") and --tls-truststore");
        }
        if (naming != null && naming.isBlank()) {
            throw new IllegalArgumentException("--naming is empty; give a corbaloc or IOR of a naming service");
        }
        return this;
    }

    String node() {
        return node;
    }

    Path iorFile() {
        return iorFile;
    }

    org.latencyserver.orb.TlsStores namingTls() {
        return namingTls;
    }

    /** @return the TLS port, 0 for any free one, -1 when it serves no TLS */
    int tlsPort() {
        return tlsPort;
    }

    String naming() {
        return naming;
    }

    String host() {
        return host;
    }

    int corbaPort() {
        return corbaPort;
    }

    int tcpPort() {
        return tcpPort;
    }

    int udpPort() {
        return udpPort;
    }

    /** @return the name it registers under in the naming service */
    String registeredName() {
        return "peers/" + node;
    }
}
