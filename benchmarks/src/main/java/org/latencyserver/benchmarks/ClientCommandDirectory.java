package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ReadyFile;

/**
 * How {@link RequestStatusHarness} drives a {@link RequestStatusClientMain} JVM: through files in a
 * directory of its own, so that neither side reads the other's output.
 *
 * <ul>
 *   <li>{@code ready.json}: written by the client once its ORBs are up, a ready file
 *       (docs/ready-files.md) of component {@value #CLIENT} with its pid and nothing else;</li>
 *   <li>{@code command-N} (N = 1, 2, …): written by the harness, one command line each (the
 *       commands of {@link RequestStatusClientMain}), run by the client in order of N; each round's
 *       answer is the {@link RequestStatusResult} file its command names, which the client writes
 *       atomically, so the harness waits for that file to appear.</li>
 * </ul>
 * Every file is written to a temporary name and renamed, so a reader never sees half of one.
 *
 * <p>Not thread-safe: one side, one thread.
 */
final class ClientCommandDirectory {

    /** The component name in the client's ready file. */
    static final String CLIENT = "request-status-client";
    /** How often the waiting side looks: between rounds only, never while a round is timed. */
    private static final long POLL_MILLIS = 5;

    private final Path directory;
    private int commandsSeen;

    /** @param directory the client's directory (created when missing) */
    ClientCommandDirectory(final Path directory) throws IOException {
        this.directory = Files.createDirectories(directory);
    }

    /** @return the directory, the client JVM's argument */
    Path directory() {
        return directory;
    }

    /** @return where the client writes its ready file */
    Path readyFile() {
        return directory.resolve("ready.json");
    }

    /** The client's side: says that it takes commands. */
    void writeReady() throws IOException {
        new ReadyFile(ReadyFile.FORMAT, CLIENT, ProcessHandle.current().pid(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of())
            .writeTo(readyFile());
    }

    /**
     * The harness's side.
     *
     * @param command one command line
     * @throws IOException when it cannot be written
     */
    void send(final String command) throws IOException {
        commandsSeen++;
        final Path temporary = Files.createTempFile(directory, ".command", ".tmp");
        Files.writeString(temporary, command + "\n");
        Files.move(temporary, commandFile(commandsSeen), StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The client's side: waits for the next command.
     *
     * @return its line
     * @throws IOException when it cannot be read
     * @throws InterruptedException when interrupted
     */
    String next() throws IOException, InterruptedException {
        final Path next = commandFile(commandsSeen + 1);
        while (!Files.exists(next)) {
            Thread.sleep(POLL_MILLIS);
        }
        commandsSeen++;
        return Files.readString(next).strip();
    }

    /**
     * The harness's side: waits for a round's result file.
     *
     * @param result  the file the command named
     * @param client  the client's JVM, for its exit and its log
     * @param timeout how long the round may take
     * @return the result
     * @throws IOException when the client ends first, the time passes, or the file is unreadable
     * @throws InterruptedException when interrupted
     */
    static RequestStatusResult awaitResult(final Path result, final ChildProcess client,
                                           final Duration timeout) throws IOException, InterruptedException {
        final long deadlineNanos = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(result)) {
            if (!client.isAlive() || System.nanoTime() > deadlineNanos) {
                throw new IOException(client + " wrote no " + result + " (" + (client.isAlive() ? "timed out" : "it ended")
                    + "); " + client.logEnd());
            }
            Thread.sleep(POLL_MILLIS);
        }
        return RequestStatusResult.read(result);
    }

    private Path commandFile(final int number) {
        return directory.resolve("command-" + number);
    }
}
