package org.latencyserver.client.mirror;

import static org.latencyserver.launch.ContextChecks.requireAtLeast;
import static org.latencyserver.launch.ContextChecks.requireNonBlank;
import static org.latencyserver.launch.ContextChecks.requirePort;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.latencyserver.orb.Partitions;

/**
 * What one {@link Mirror} copies and where: the server, the connections followed, the mirror file
 * and its periods. Set with the fluent setters, then {@link Mirror#launch(MirrorContext) launch}:
 * launching validates first.
 *
 * <p>Not thread-safe: configure it on one thread, then launch it; do not change it afterwards.
 */
public final class MirrorContext {
    /** How long one call to the server may wait for its reply, in milliseconds. */
    static final long REPLY_TIMEOUT_MILLIS = 5_000;

    private String serverReference;
    private String naming;
    private String node;
    private Path file;
    private Set<Short> connections = Set.of();
    private int heartbeatMillis = 100;
    private long pollMillis = 1_000;
    private long refreshMillis = 10_000;
    private String listenHost = "127.0.0.1";
    private int listenPort;
    private String group;

    /** @return this, mirroring this server: IOR/corbaloc, a file holding one, or a name in {@link #naming(String)} */
    public MirrorContext server(String reference) {
        this.serverReference = reference;
        return this;
    }

    /** @return this, resolving the server's name in this naming service (null: none) */
    public MirrorContext naming(String naming) {
        this.naming = naming;
        return this;
    }

    /**
     * @return this, for the applications of this client workstation: in a partitioned deployment the server is its
     *     partition's ({@code LatencyServer/by-client/NODE}); null: none
     */
    public MirrorContext node(String node) {
        this.node = node;
        return this;
    }

    /** @return this, writing this mirror file (replaced atomically at launch) */
    public MirrorContext file(Path file) {
        this.file = file;
        return this;
    }

    /** @return this, following these index_refs (empty, the default: every connection of the server) */
    public MirrorContext connections(Set<Short> indexRefs) {
        this.connections = new TreeSet<>(indexRefs);
        return this;
    }

    /** @return this, with the heartbeat period written to the file, in milliseconds (default 100) */
    public MirrorContext heartbeatMillis(int heartbeatMillis) {
        this.heartbeatMillis = heartbeatMillis;
        return this;
    }

    /** @return this, re-reading this often while the server does not push, and first retrying after it, in ms (default 1000) */
    public MirrorContext pollMillis(long pollMillis) {
        this.pollMillis = pollMillis;
        return this;
    }

    /** @return this, re-reading everything this often while pushed, a safety net, in ms (default 10000) */
    public MirrorContext refreshMillis(long refreshMillis) {
        this.refreshMillis = refreshMillis;
        return this;
    }

    /**
     * @return this, with the address the server pushes to: this host as the server reaches it (default 127.0.0.1, which only
     *     a server on loopback reaches; with a server elsewhere the launch refuses it)
     */
    public MirrorContext listenHost(String listenHost) {
        this.listenHost = listenHost;
        return this;
    }

    /** @return this, with the port the server pushes to (0, the default: any free port) */
    public MirrorContext listenPort(int listenPort) {
        this.listenPort = listenPort;
        return this;
    }

    /**
     * @return this, giving the mirror file this group (a name, or a numeric id) so that its members read it; null, the
     *     default: the group the file system gives it (the mirror's user's, or the directory's when it is setgid)
     */
    public MirrorContext group(String group) {
        this.group = group;
        return this;
    }

    /**
     * Checks the settings.
     *
     * @return this
     * @throws IllegalArgumentException naming the setting (as its command-line option) and the bad value
     */
    public MirrorContext validate() {
        requireNonBlank("--server", serverReference(), "name the server (IOR/corbaloc, a file or a name), or give --naming");
        if (file == null) {
            throw new IllegalArgumentException("no mirror file (--file PATH)");
        }
        if (heartbeatMillis < 10 || heartbeatMillis > 60_000) {
            throw new IllegalArgumentException("--heartbeat-millis must be 10..60000, was " + heartbeatMillis);
        }
        requireAtLeast("--poll-millis", pollMillis, 10);
        if (refreshMillis < pollMillis) {
            throw new IllegalArgumentException("--refresh-millis must be >= --poll-millis (" + pollMillis + "), was " + refreshMillis);
        }
        for (final short indexRef : connections) {
            if (indexRef < 0) {
                throw new IllegalArgumentException("--connections: index_ref must be 0..32767, was " + indexRef);
            }
        }
        requireNonBlank("--host", listenHost, "be an address");
        requirePort("--port", listenPort, 0);
        if (group != null) {
            requireNonBlank("--group", group, "name a group of this host");
        }
        return this;
    }

    /** @return the server as given, or {@value Partitions#DEFAULT_SERVER_NAME} with a naming service */
    String serverReference() {
        return Partitions.serverOrDefault(serverReference, naming);
    }

    /** @return the client workstation this host is (finds its partition's server), or none */
    java.util.List<String> nodes() {
        return node == null ? java.util.List.of() : java.util.List.of(node);
    }

    String naming() {
        return naming;
    }

    Path file() {
        return file;
    }

    Set<Short> connections() {
        return connections;
    }

    int heartbeatMillis() {
        return heartbeatMillis;
    }

    long pollMillis() {
        return pollMillis;
    }

    long refreshMillis() {
        return refreshMillis;
    }

    String listenHost() {
        return listenHost;
    }

    int listenPort() {
        return listenPort;
    }

    /** @return the mirror file's group as given, or null for the file system's choice */
    String group() {
        return group;
    }
}
