package org.latencyserver.orb;

import picocli.CommandLine.Option;

/**
 * The command-line options of a process that finds a Latency Server to call: {@code --server REF}
 * and {@code --naming REF}. A picocli mixin ({@code @Mixin ServerLocationOptions location = new
 * ServerLocationOptions();}); the mirror, the console and the client agent take them this way.
 *
 * <p>{@code --server} is the server's IOR file, an {@code IOR:}/{@code corbaloc:} string, or its name
 * in the naming service {@code --naming}. Given only {@code --naming}, the name is
 * {@value Partitions#DEFAULT_SERVER_NAME} ({@link Partitions#serverOrDefault}). In a partitioned
 * deployment the name is a partition's ({@code LatencyServer/p1}) or the deployment's, which
 * {@link ClientNodeOption}'s {@code --node} (or the caller's own node option) narrows to the server
 * of one client workstation's partition ({@code LatencyServer/by-client/NODE}; see {@link Partitions}).
 * This class only holds what was given; each process resolves it (and reports what is missing).
 *
 * <p>Not thread-safe: picocli fills it while parsing the command line, the main thread reads it after.
 */
public final class ServerLocationOptions {

    @Option(names = "--server", paramLabel = "REF",
        description = "The server: its IOR file (latency-server.ior), an IOR/corbaloc, or its name in --naming (default with"
            + " --naming: " + Partitions.DEFAULT_SERVER_NAME + "). In a partitioned deployment: a partition's name ("
            + Partitions.DEFAULT_SERVER_NAME + "/p1), or the deployment's name with --node (the server of that client"
            + " workstation's partition, " + Partitions.DEFAULT_SERVER_NAME + "/by-client/NODE).")
    private String server;

    @Option(names = "--naming", paramLabel = "REF",
        description = "Naming service, e.g. corbaloc::127.0.0.1:2809/NameService, in which --server is looked up by name.")
    private String naming;

    /** @return {@code --server} as given, or null (see {@link Partitions#serverOrDefault} for the default) */
    public String server() {
        return server;
    }

    /** @return {@code --naming} as given (a corbaloc or IOR of a CosNaming service), or null */
    public String naming() {
        return naming;
    }
}
