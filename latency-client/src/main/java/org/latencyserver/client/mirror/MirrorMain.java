package org.latencyserver.client.mirror;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.IntConsumer;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ComponentMain;
import org.latencyserver.launch.ComponentMain.Refusal;
import org.latencyserver.launch.ReadinessOptions;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.orb.CallbackReach;
import org.latencyserver.orb.ClientNodeOption;
import org.latencyserver.orb.ServerLocationOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./latency mirror}: keeps a host-local, memory-mapped copy of a Latency Server's estimates
 * (layout: {@code docs/mirror-layout.md}) that applications on this host read without a call.
 *
 * <p>Only parses the command line: {@link Mirror} runs the mirror from a {@link MirrorContext}. Once
 * the server has answered it prints one line starting {@code mirror:} for people and writes
 * {@code --ready-file} for programs ({@code docs/ready-files.md}).
 *
 * <p>Exit codes: stopped by SIGTERM, it closes, deletes its ready file and exits 143 (128 + 15), as a JVM does; Ctrl-C
 * likewise exits 130 (the mirror file stays, its heartbeat stopped); 1 when the file cannot be created or the mirror's
 * writer dies (the file truncated under it; the ready file is removed first); 2 for bad arguments, when its callback
 * address ({@code --host}) is loopback while the server is not ({@link CallbackReach}), for a {@code --group} that does
 * not exist or that the file cannot be given, or when the server, at first
 * contact, lacks a connection named by {@code --connections}.
 */
@Command(name = "mirror", mixinStandardHelpOptions = true, version = "latency mirror 0.1.0",
    description = "Mirror a Latency Server's estimates into a memory-mapped file on this host "
        + "(read it with the Java EstimateMirror or the C latency_mirror.h; layout: docs/mirror-layout.md).")
public final class MirrorMain implements Callable<Integer> {

    @Mixin
    private ServerLocationOptions location = new ServerLocationOptions();

    /** This host's client workstation, in a partitioned deployment. */
    @Mixin
    private ClientNodeOption node = new ClientNodeOption();

    @Option(names = "--file", required = true, paramLabel = "PATH", description = "The mirror file to create (replaced atomically).")
    private Path file;

    @Option(names = "--connections", paramLabel = "LIST", split = ",",
        description = "index_refs to mirror, e.g. 1,2,6 (default: every connection of the server).")
    private short[] connections = new short[0];

    @Option(names = "--heartbeat-millis", description = "Heartbeat period written to the file, ms (default: ${DEFAULT-VALUE}).")
    private int heartbeatMillis = 100;

    @Option(names = "--poll-millis", description = "Re-read period when the server does not push, and first retry, ms (default: ${DEFAULT-VALUE}).")
    private long pollMillis = 1_000;

    @Option(names = "--refresh-millis", description = "Full re-read period while pushed, a safety net, ms (default: ${DEFAULT-VALUE}).")
    private long refreshMillis = 10_000;

    /** Ready once the server has answered. */
    @Mixin
    private ReadinessOptions readiness = new ReadinessOptions();

    @Option(names = {"--host", "--listen-host"}, paramLabel = "ADDRESS", description = "Address of the callback object the server"
        + " pushes to: this host as the server reaches it (default: ${DEFAULT-VALUE}, which only a server on loopback reaches; with a"
        + " server elsewhere the mirror refuses to start, exit 2). --listen-host is the same option's older name.")
    private String listenHost = "127.0.0.1";

    @Option(names = "--group", paramLabel = "GROUP", description = "Give the mirror file (mode 0640) this group, a name or a"
        + " numeric id, so that the applications' users read it as its members; the mirror's user must be root or a member"
        + " (default: the group the file system gives it: the user's, or the directory's when it has the setgid bit)."
        + " An unknown group, or one the file cannot be given, is refused: exit 2.")
    private String group;

    @Option(names = "--port", paramLabel = "PORT", description = "Port of the callback object, for a firewall; 0 for any free port (default: ${DEFAULT-VALUE}).")
    private int listenPort;

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new MirrorMain()).execute(args));
    }

    /**
     * A mirror without its writer would keep its ready file and process while its file's heartbeat
     * has stopped: says why, removes the ready file and exits {@value ComponentMain#EXIT_FAILED}
     * (from a thread of its own, so that the shutdown, which closes the mirror and waits for the
     * writer's thread, never waits for the thread that asked for it).
     */
    private void exitAfterWriterDeath(final String why) {
        exitAfterWriterDeath(why, readiness.readyFile(), System.err,
            status -> new Thread(() -> System.exit(status), "mirror-exit").start());
    }

    /**
     * @param why       the writer's death, naming the file
     * @param readyFile the ready file to remove, or null
     * @param err       where the line goes
     * @param exit      ends the process with the status it is given
     */
    static void exitAfterWriterDeath(final String why, final Path readyFile, final PrintStream err, final IntConsumer exit) {
        err.println("latency mirror: " + why);
        ReadyFile.deleteQuietly(readyFile);
        exit.accept(ComponentMain.EXIT_FAILED);
    }

    @Override
    public Integer call() throws Exception {
        final Set<Short> followed = new TreeSet<>();
        for (final short indexRef : connections) {
            followed.add(indexRef);
        }
        final MirrorContext context = new MirrorContext().server(location.server()).naming(location.naming()).node(node.node())
            .file(file).connections(followed)
            .heartbeatMillis(heartbeatMillis).pollMillis(pollMillis).refreshMillis(refreshMillis).listenHost(listenHost)
            .listenPort(listenPort).group(group);
        return ComponentMain.serve(Component.MIRROR, readiness.readyFile(), "latency mirror", () -> {
            ComponentMain.validate(context::validate);
            try {
                final Mirror mirror = Mirror.launch(context);
                mirror.writerDeath().thenAccept(this::exitAfterWriterDeath);
                return mirror;
            } catch (Mirror.UnusableGroup e) {
                throw Refusal.usage(e.getMessage());
            } catch (IOException e) {
                throw Refusal.failed(e.getMessage());
            } catch (CallbackReach.Unreachable e) {
                throw Refusal.usage(e.getMessage());
            }
        }, mirror -> {
            try {
                mirror.awaitFirstContact();
            } catch (Mirror.UnknownConnections e) {
                throw Refusal.usage(e.getMessage());
            }
            System.out.println("mirror: " + mirror.connectionCount() + " connection(s) of " + location.server() + " in "
                + file.toAbsolutePath() + " (heartbeat every " + heartbeatMillis + " ms)");
            System.out.flush();
        });
    }
}
