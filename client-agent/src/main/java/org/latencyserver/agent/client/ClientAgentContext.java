package org.latencyserver.agent.client;

import static org.latencyserver.launch.ContextChecks.requireAtLeast;
import static org.latencyserver.launch.ContextChecks.requireNonBlank;
import static org.latencyserver.launch.ContextChecks.requirePort;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.latencyserver.agent.probe.ProbeSettings;
import org.latencyserver.orb.Partitions;
import org.latencyserver.orb.RevokedSerials;
import org.latencyserver.orb.TlsStores;

/**
 * What one {@link ClientAgent} measures and how: the server, the client nodes it measures for, its
 * peers, pacing, adaptive sampling, probing and time-outs. Set with the fluent setters, then
 * {@link ClientAgent#launch(ClientAgentContext) launch}: launching validates first.
 *
 * <p>Not thread-safe: configure it on one thread, then launch it; do not change it afterwards.
 */
public final class ClientAgentContext {
    private String serverReference;
    private String naming;
    private TlsStores tls;
    private Set<String> clientNodes = Set.of();
    private Map<String, String> peerReferences = Map.of();
    private long pollIntervalMillis = 5_000;
    private Double adaptiveHalfWidthMillis;
    private long intervalMicros;
    private int jitWarmupSeconds = 15;
    private String agentName;
    private String host = "127.0.0.1";
    private int port;
    private boolean probing = true;
    private long probeReportMillis = ProbeSettings.DEFAULT_REPORT_INTERVAL_MILLIS;
    private long callTimeoutMillis = 10_000;
    private boolean pinPeers;
    private Path revokedSerials;

    /**
     * @return this, measuring for this server: its IOR file, an IOR/corbaloc, or its name with {@link #naming(String)} (by default
     *     {@code LatencyServer}; a partitioned deployment's directory leads to the server of the client nodes' partition)
     */
    public ClientAgentContext server(String reference) {
        this.serverReference = reference;
        return this;
    }

    /** @return this, resolving the server by name and peers as {@code peers/NODE} in this naming service (null: none) */
    public ClientAgentContext naming(String naming) {
        this.naming = naming;
        return this;
    }

    /** @return this, calling the server over IIOP/TLS with this agent's certificate (null: plain IIOP) */
    public ClientAgentContext tls(TlsStores stores) {
        this.tls = stores;
        return this;
    }

    /** @return this, measuring only connections whose client is one of these nodes (empty, the default: every connection) */
    public ClientAgentContext clientNodes(Set<String> nodes) {
        this.clientNodes = Set.copyOf(nodes);
        return this;
    }

    /** @return this, reaching the peer agent of each peer node at this IOR file, IOR or corbaloc (others: {@code peers/NODE}) */
    public ClientAgentContext peerReferences(Map<String, String> references) {
        this.peerReferences = new LinkedHashMap<>(references);
        return this;
    }

    /** @return this, also polling the open requests this often, in ms (default 5000, the thesis's 5 s; at least 100) */
    public ClientAgentContext pollIntervalMillis(long pollIntervalMillis) {
        this.pollIntervalMillis = pollIntervalMillis;
        return this;
    }

    /** @return this, stopping a run once the 95 % CI half-width of the mean is at most this, in ms (null: full runs) */
    public ClientAgentContext adaptiveHalfWidthMillis(Double halfWidthMillis) {
        this.adaptiveHalfWidthMillis = halfWidthMillis;
        return this;
    }

    /** @return this, starting one round trip every this many microseconds at most (0, the default: back to back) */
    public ClientAgentContext intervalMicros(long intervalMicros) {
        this.intervalMicros = intervalMicros;
        return this;
    }

    /** @return this, running unrecorded round trips this many seconds in all before a path's first measurements (default 15) */
    public ClientAgentContext jitWarmupSeconds(int jitWarmupSeconds) {
        this.jitWarmupSeconds = jitWarmupSeconds;
        return this;
    }

    /** @return this, named so in the server's log (null, the default: {@code client-agent@HOST/PID}) */
    public ClientAgentContext agentName(String agentName) {
        this.agentName = agentName;
        return this;
    }

    /**
     * @return this, with the callback object's address: this host as the server reaches it (default 127.0.0.1, which only a
     *     server on loopback reaches; with a server elsewhere the launch refuses it)
     */
    public ClientAgentContext host(String host) {
        this.host = host;
        return this;
    }

    /** @return this, with the callback object's port (0, the default: any free port) */
    public ClientAgentContext port(int port) {
        this.port = port;
        return this;
    }

    /** @return this, probing the connections the server asks to probe (the default) or not */
    public ClientAgentContext probing(boolean probing) {
        this.probing = probing;
        return this;
    }

    /**
     * @return this, reporting each probed connection's round trips this often, in ms (at least
     *         {@value ProbeSettings#MIN_REPORT_INTERVAL_MILLIS})
     */
    public ClientAgentContext probeReportMillis(long probeReportMillis) {
        this.probeReportMillis = probeReportMillis;
        return this;
    }

    /** @return this, failing a call (round trip, submit) unanswered this long, in ms (default 10000) */
    public ClientAgentContext callTimeoutMillis(long callTimeoutMillis) {
        this.callTimeoutMillis = callTimeoutMillis;
        return this;
    }

    /**
     * @return this, measuring a peer only over IIOP/TLS and only when it presents its node's peer certificate
     *     ({@code CN=NODE,OU=peer}) from the deployment's CA, the trust store of {@link #tls} (default off: plain IIOP, any peer)
     */
    public ClientAgentContext pinPeers(boolean pinPeers) {
        this.pinPeers = pinPeers;
        return this;
    }

    /**
     * @return this, refusing a pinned peer whose certificate's serial this file lists ({@code ./latency certs --revoke}
     *     writes it), re-read when it changes; null, the default: none. Needs {@link #pinPeers}
     */
    public ClientAgentContext revokedSerials(Path file) {
        this.revokedSerials = file;
        return this;
    }

    /**
     * Checks the settings.
     *
     * @return this
     * @throws IllegalArgumentException naming the setting (as its command-line option) and the bad value
     */
    public ClientAgentContext validate() {
        requireNonBlank("--server", serverReference(), "name the server (IOR file, IOR/corbaloc or name), or give --naming to"
            + " find it by name (" + Partitions.DEFAULT_SERVER_NAME + ", in a partitioned deployment by --node)");
        if (probeReportMillis < ProbeSettings.MIN_REPORT_INTERVAL_MILLIS) {
            throw new IllegalArgumentException("--probe-report-millis must be at least " + ProbeSettings.MIN_REPORT_INTERVAL_MILLIS
                + " ms, was " + probeReportMillis);
        }
        if (pollIntervalMillis < 100) {
            throw new IllegalArgumentException("--poll-millis must be at least 100 ms, was " + pollIntervalMillis);
        }
        requireAtLeast("--interval-micros", intervalMicros, 0);
        requireAtLeast("--jit-warmup-seconds", jitWarmupSeconds, 0);
        if (adaptiveHalfWidthMillis != null && !(adaptiveHalfWidthMillis > 0)) {
            throw new IllegalArgumentException("--adaptive-half-width-ms must be a positive number of ms, was " + adaptiveHalfWidthMillis);
        }
        if (callTimeoutMillis < 1) {
            throw new IllegalArgumentException("--call-timeout-millis must be at least 1 ms, was " + callTimeoutMillis);
        }
        if (pinPeers && tls == null) {
            throw new IllegalArgumentException("--pin-peers checks each peer's certificate against the deployment's CA over"
                + " IIOP/TLS: give --tls-keystore (this agent's certificate) and --tls-truststore (the CA) too");
        }
        if (revokedSerials != null) {
            if (!pinPeers) {
                throw new IllegalArgumentException("--tls-revoked-serials refuses revoked peers of pinned round trips only:"
                    + " give --pin-peers too");
            }
            try {
                RevokedSerials.read(revokedSerials);
            } catch (IOException e) {
                throw new IllegalArgumentException("--tls-revoked-serials: revoked serials file " + revokedSerials
                    + " cannot be read: " + e.getMessage(), e);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--tls-revoked-serials: " + e.getMessage(), e);
            }
        }
        requireNonBlank("--host", host, "be an address");
        requirePort("--port", port, 0);
        return this;
    }

    /** @return the server as given, or {@value Partitions#DEFAULT_SERVER_NAME} with a naming service */
    String serverReference() {
        return Partitions.serverOrDefault(serverReference, naming);
    }

    String naming() {
        return naming;
    }

    TlsStores tls() {
        return tls;
    }

    /** @return the client nodes it measures for, sorted; empty for every node */
    Set<String> clientNodes() {
        return new TreeSet<>(clientNodes);
    }

    Map<String, String> peerReferences() {
        return peerReferences;
    }

    long pollIntervalMillis() {
        return pollIntervalMillis;
    }

    Double adaptiveHalfWidthMillis() {
        return adaptiveHalfWidthMillis;
    }

    long intervalMicros() {
        return intervalMicros;
    }

    int jitWarmupSeconds() {
        return jitWarmupSeconds;
    }

    /** @return its name as given, or {@code client-agent@HOST/PID}'s JVM form */
    String agentName() {
        return agentName != null ? agentName : "client-agent@" + ManagementFactory.getRuntimeMXBean().getName();
    }

    String host() {
        return host;
    }

    int port() {
        return port;
    }

    boolean probing() {
        return probing;
    }

    long probeReportMillis() {
        return probeReportMillis;
    }

    long callTimeoutMillis() {
        return callTimeoutMillis;
    }

    boolean pinPeers() {
        return pinPeers;
    }

    /** @return the revoked-serials file of pinned peers, or null for none */
    Path revokedSerials() {
        return revokedSerials;
    }
}
