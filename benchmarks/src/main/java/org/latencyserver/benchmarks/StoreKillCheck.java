package org.latencyserver.benchmarks;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.latencyserver.benchmarks.stores.ComparedStore;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.MibReading;

/**
 * The guarantee, checked from outside: a child process opens a store over the testbed's table and
 * changes one connection after the other (each change a reading no other change has), printing
 * {@code ack N} once change N is acknowledged; the parent kills it with {@code SIGKILL}
 * ({@link Process#destroyForcibly}) after a random number of acknowledgements, reads every line the
 * child wrote (to a file), reopens the files and checks that each connection holds its last acknowledged
 * reading (or the one change after it that may have been saved but not acknowledged yet).
 */
final class StoreKillCheck {

    /**
     * @param store        the store's name
     * @param kills        children killed
     * @param acknowledged changes acknowledged over all kills
     * @param lost         connections whose last acknowledged change was missing after a kill (0 = the guarantee held)
     * @param failures     what was missing, one line each
     */
    record Outcome(String store, int kills, long acknowledged, int lost, List<String> failures) {
    }

    private static final String READY = "ready";
    private static final String ACK = "ack ";
    private static final long CHILD_TIMEOUT_NANOS = 120_000_000_000L;

    private StoreKillCheck() {
    }

    static Outcome check(final StoreWorkload testbed, final String storeName, final int kills, final Path work) throws Exception {
        final Random random = new Random(storeName.hashCode());
        long acknowledged = 0;
        int lost = 0;
        final List<String> failures = new ArrayList<>();
        for (int kill = 0; kill < kills; kill++) {
            final Path directory = Files.createTempDirectory(work, storeName + "-killed");
            final long lastAck = runAndKill(storeName, directory, 50 + random.nextInt(1500), work);
            acknowledged += lastAck;
            final UpdateEngine restored = testbed.emptyEngine();
            ComparedStore.named(storeName).restore(directory, restored, testbed.maxHistogramBins());
            for (short ref = 1; ref <= testbed.connections(); ref++) {
                final MibReading found = restored.table().row(ref).latest();
                long last = lastAck;
                while (last > 0 && testbed.uniqueChangeRef(last) != ref) {
                    last--;
                }
                final boolean next = testbed.uniqueChangeRef(lastAck + 1) == ref
                    && found.equals(StoreWorkload.uniqueReading(lastAck + 1));
                if (last > 0 && !found.equals(StoreWorkload.uniqueReading(last)) && !next) {
                    lost++;
                    failures.add(storeName + " kill " + (kill + 1) + ": connection " + ref + " holds " + found + ", acknowledged "
                        + StoreWorkload.uniqueReading(last) + " (change " + last + " of " + lastAck + ")");
                }
            }
        }
        return new Outcome(storeName, kills, acknowledged, lost, failures);
    }

    /**
     * Starts the child with its output going to a file (a killed process's pipe is closed under the
     * reader; a file keeps every line it wrote), kills it once it has acknowledged {@code killAfter}
     * changes, and reads what it wrote.
     *
     * @return the last change the child acknowledged before it was killed
     */
    private static long runAndKill(final String storeName, final Path directory, final int killAfter, final Path work)
        throws Exception {
        final Path output = directory.resolveSibling(directory.getFileName() + ".out");
        final Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
            System.getProperty("java.class.path"), StateStoreComparisonHarness.class.getName(), "child", storeName, directory.toString())
            .redirectOutput(output.toFile())
            .redirectError(work.resolve(storeName + "-child.log").toFile())
            .start();
        final long deadlineNanos = System.nanoTime() + CHILD_TIMEOUT_NANOS;
        while (lastAck(output) < killAfter && child.isAlive() && System.nanoTime() < deadlineNanos) {
            Thread.sleep(1);
        }
        child.destroyForcibly(); // SIGKILL
        child.waitFor();
        final long lastAck = lastAck(output);
        if (lastAck < killAfter) {
            throw new IllegalStateException(storeName + ": the child stopped after " + lastAck + " changes; see "
                + work.resolve(storeName + "-child.log"));
        }
        return lastAck;
    }

    /** @return the number of the last {@code ack N} line the child finished writing; 0 when none */
    private static long lastAck(final Path output) throws java.io.IOException {
        final String text = Files.readString(output, StandardCharsets.UTF_8);
        final int end = text.lastIndexOf('\n');
        if (end < 0) {
            return 0;
        }
        final String line = text.substring(text.lastIndexOf('\n', end - 1) + 1, end);
        return line.startsWith(ACK) ? Long.parseLong(line.substring(ACK.length())) : 0;
    }

    /**
     * The child: changes and acknowledges until it is killed.
     *
     * @param storeName the store
     * @param directory its (empty) directory
     */
    static void child(final String storeName, final Path directory) throws Exception {
        final StoreWorkload testbed = StoreWorkload.testbed(Files.createDirectories(directory.resolveSibling(directory.getFileName()
            + ".config")));
        final UpdateEngine engine = testbed.preparedEngine();
        final ComparedStore store = ComparedStore.named(storeName);
        store.open(directory, engine);
        final PrintStream out = System.out;
        out.println(READY);
        out.flush();
        for (long change = 1; ; change++) {
            testbed.uniqueChange(engine, change);
            store.acknowledge();
            out.println(ACK + change);
            out.flush();
        }
    }
}
