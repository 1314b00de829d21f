package org.latencyserver.console;

import static org.latencyserver.launch.ContextChecks.requireAtLeast;
import static org.latencyserver.launch.ContextChecks.requireNonBlank;
import static org.latencyserver.launch.ContextChecks.requirePort;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.function.Consumer;
import org.latencyserver.orb.Partitions;
import org.latencyserver.orb.TlsStores;

/**
 * What one {@link StatusConsole} shows and where: the server it reads, the web page's address and
 * limits, how often it re-reads, and whether it serves the page at all (the terminal's
 * {@code --watch} table only observes snapshots). Set with the fluent setters, then
 * {@link StatusConsole#launch(ConsoleContext) launch}: launching validates first.
 *
 * <p>Not thread-safe: configure it on one thread, then launch it; do not change it afterwards.
 */
public final class ConsoleContext {
    /** The shortest refresh period accepted, in milliseconds: a faster one only loads the server. */
    public static final long MIN_REFRESH_MILLIS = 100;
    /** The refusal of a web page off loopback without HTTPS; {@code %s} is the {@code --bind} address. */
    static final String OFF_LOOPBACK_REFUSAL = "--bind %s is not loopback: off loopback the web page is served over HTTPS to"
        + " operators only; give --https-keystore FILE and --https-truststore FILE (./latency certs --console NAME makes them),"
        + " or --bind 127.0.0.1";
    /** How long one call to the server may wait for its reply, in milliseconds. */
    static final long REPLY_TIMEOUT_MILLIS = 5_000;

    private String serverReference;
    private String naming;
    private String node;
    private boolean allPartitions;
    private TlsStores tls;
    private TlsStores https;
    private boolean webPage = true;
    private String bindAddress = "127.0.0.1";
    private int httpPort = 8470;
    private String callbackHost = "127.0.0.1";
    private int callbackPort;
    private int maxStreams = 64;
    private long refreshMillis = 1_000;
    private Consumer<ConsoleSnapshot> onSnapshot;
    private Consumer<PartitionsSnapshot> onPartitions;

    /** @return this, reading this server: its IOR file, an IOR/corbaloc, or its name with {@link #naming(String)} */
    public ConsoleContext server(String reference) {
        this.serverReference = reference;
        return this;
    }

    /** @return this, resolving the server's name in this naming service (null: none) */
    public ConsoleContext naming(String naming) {
        this.naming = naming;
        return this;
    }

    /** @return this, showing the server of this client workstation's partition ({@code NAME/by-client/NODE}); null: none */
    public ConsoleContext node(String node) {
        this.node = node;
        return this;
    }

    /**
     * @return this, showing every partition registered under the server's name (default {@code LatencyServer}) in the
     *     naming service, each with its own table, and which are down
     */
    public ConsoleContext allPartitions(boolean allPartitions) {
        this.allPartitions = allPartitions;
        return this;
    }

    /** @return this, calling the server over IIOP/TLS with an operator's certificate (null: plain IIOP) */
    public ConsoleContext tls(TlsStores stores) {
        this.tls = stores;
        return this;
    }

    /**
     * @return this, serving the web page over HTTPS to operators only: its server certificate and the authorities whose
     *     client certificates it trusts ({@link OperatorHttps}); null, the default: plain HTTP, on loopback only
     */
    public ConsoleContext https(TlsStores stores) {
        this.https = stores;
        return this;
    }

    /** @return this, serving the web page (the default) or not (a terminal table only observes) */
    public ConsoleContext webPage(boolean webPage) {
        this.webPage = webPage;
        return this;
    }

    /** @return this, with the web page's address (default 127.0.0.1, loopback only) */
    public ConsoleContext bindAddress(String bindAddress) {
        this.bindAddress = bindAddress;
        return this;
    }

    /** @return this, with the web page's port (0: any free port; default 8470) */
    public ConsoleContext httpPort(int httpPort) {
        this.httpPort = httpPort;
        return this;
    }

    /**
     * @return this, with the address of the callback object the server pushes to: this host as the server reaches it
     *     (default 127.0.0.1, which only a server on loopback reaches; with a server elsewhere the launch refuses it)
     */
    public ConsoleContext callbackHost(String callbackHost) {
        this.callbackHost = callbackHost;
        return this;
    }

    /** @return this, with the port of the callback object the server pushes to (0, the default: any free port) */
    public ConsoleContext callbackPort(int callbackPort) {
        this.callbackPort = callbackPort;
        return this;
    }

    /** @return this, keeping at most this many pages live at once (default 64) */
    public ConsoleContext maxStreams(int maxStreams) {
        this.maxStreams = maxStreams;
        return this;
    }

    /** @return this, re-reading the server's table this often, in milliseconds (default 1000) */
    public ConsoleContext refreshMillis(long refreshMillis) {
        this.refreshMillis = refreshMillis;
        return this;
    }

    /** @return this, telling this observer every new snapshot, on the refresh thread (null: none) */
    public ConsoleContext onSnapshot(Consumer<ConsoleSnapshot> observer) {
        this.onSnapshot = observer;
        return this;
    }

    /** @return this, telling this observer every new snapshot of all partitions ({@link #allPartitions}); null: none */
    public ConsoleContext onPartitions(Consumer<PartitionsSnapshot> observer) {
        this.onPartitions = observer;
        return this;
    }

    /**
     * Checks the settings.
     *
     * @return this
     * @throws IllegalArgumentException naming the setting (as its command-line option) and the bad value
     */
    public ConsoleContext validate() {
        requireNonBlank("--server", serverReference(), "name the server (IOR file, IOR/corbaloc or name), or give --naming");
        if (allPartitions && naming == null) {
            throw new IllegalArgumentException("--all-partitions lists the partitions registered in a naming service: give --naming");
        }
        if (allPartitions && node != null) {
            throw new IllegalArgumentException("--all-partitions shows every partition; --node shows one node's: give one of them");
        }
        requireAtLeast("--refresh-millis", refreshMillis, MIN_REFRESH_MILLIS);
        requireAtLeast("--max-streams", maxStreams, 1);
        requirePort("--http-port", httpPort, 0);
        requireNonBlank("--bind", bindAddress, "be an address");
        if (webPage && https == null && !isLoopback(bindAddress)) {
            throw new IllegalArgumentException(OFF_LOOPBACK_REFUSAL.formatted(bindAddress));
        }
        if (webPage && https != null) {
            OperatorHttps.of(https);
        }
        requireNonBlank("--host", callbackHost, "be an address");
        requirePort("--port", callbackPort, 0);
        return this;
    }

    /**
     * @param address an address or host name as given to {@code --bind}
     * @return whether every address it names is loopback
     * @throws IllegalArgumentException when it names no address
     */
    static boolean isLoopback(String address) {
        try {
            for (InetAddress resolved : InetAddress.getAllByName(address)) {
                if (!resolved.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--bind " + address + " names no address of this machine: " + e.getMessage(), e);
        }
    }

    /** @return the server as given, or {@value Partitions#DEFAULT_SERVER_NAME} with a naming service */
    String serverReference() {
        return Partitions.serverOrDefault(serverReference, naming);
    }

    /** @return the client workstation whose partition's server to show, or none */
    java.util.List<String> nodes() {
        return node == null ? java.util.List.of() : java.util.List.of(node);
    }

    /** @return whether every partition under the server's name is shown */
    boolean allPartitions() {
        return allPartitions;
    }

    String naming() {
        return naming;
    }

    TlsStores tls() {
        return tls;
    }

    TlsStores https() {
        return https;
    }

    boolean webPage() {
        return webPage;
    }

    String bindAddress() {
        return bindAddress;
    }

    int httpPort() {
        return httpPort;
    }

    String callbackHost() {
        return callbackHost;
    }

    int callbackPort() {
        return callbackPort;
    }

    int maxStreams() {
        return maxStreams;
    }

    long refreshMillis() {
        return refreshMillis;
    }

    Consumer<ConsoleSnapshot> onSnapshot() {
        return onSnapshot;
    }

    Consumer<PartitionsSnapshot> onPartitions() {
        return onPartitions;
    }
}
