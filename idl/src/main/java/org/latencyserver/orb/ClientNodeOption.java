package org.latencyserver.orb;

import picocli.CommandLine.Option;

/**
 * The command-line option that picks, in a partitioned deployment, the server of one client
 * workstation's partition: {@code --node NODE}, resolved as
 * {@code <server name>/by-client/NODE} in the naming service ({@link Partitions}). A picocli mixin,
 * taken beside {@link ServerLocationOptions} by the mirror and the console. (The client agent's
 * {@code --node} is its own: repeatable, and it also chooses the connections the agent measures.)
 *
 * <p>Not thread-safe: picocli fills it while parsing the command line, the main thread reads it after.
 */
public final class ClientNodeOption {

    @Option(names = "--node", paramLabel = "NODE",
        description = "A client workstation: in a partitioned deployment, use the server of its partition ("
            + Partitions.DEFAULT_SERVER_NAME + "/by-client/NODE in --naming).")
    private String node;

    /** @return the client workstation's node name as given, or null */
    public String node() {
        return node;
    }
}
