package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.latencyserver.benchmarks.stores.ComparedStore;
import org.latencyserver.benchmarks.stores.ProcessIo;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.MibReading;

/**
 * One store over one workload, in this process: opens it over the prepared table, applies the
 * workload's changes one at a time, each acknowledged before the next (timed), counts this
 * process's writes over the changes, closes it, restores its files into a fresh engine, which must
 * hold every connection's last reading, and times a restore in a new JVM, as at a server's start.
 */
final class StoreComparisonRun {

    /** How a run makes its changes. */
    enum Changes {
        /** The testbed's push mode: all connections each round, a round every 100 ms. */
        TESTBED_PUSH,
        /** Random connections, one after the other, as fast as they are acknowledged. */
        RANDOM_FLAT_OUT
    }

    private static final long ROUND_NANOS = 100_000_000L;
    private static final long SCALE_SEED = 7;

    /**
     * What one store did.
     *
     * @param store            its name
     * @param changes          changes acknowledged
     * @param io               this process's writes over the changes (the store's threads' included)
     * @param fileGrowthBytes  how much its files grew over the changes
     * @param acknowledgeNanos time of each acknowledgement
     * @param filesOpen        its files at the end of the changes, still open
     * @param filesClosed      its files after the close
     * @param restoreMillis    reading its files into a fresh engine in a new JVM
     */
    record Result(String store, long changes, ProcessIo io, long fileGrowthBytes, Histogram acknowledgeNanos, String filesOpen,
                  String filesClosed, double restoreMillis) {
    }

    private StoreComparisonRun() {
    }

    static Result run(final StoreWorkload workload, final String storeName, final Changes kind, final long changes, final Path work)
        throws Exception {
        final Path directory = Files.createTempDirectory(work, storeName);
        final UpdateEngine engine = workload.preparedEngine();
        final Histogram acknowledge = new Histogram(3_600_000_000_000L, 3);
        final ComparedStore store = ComparedStore.named(storeName);
        final ProcessIo ioBefore;
        final ProcessIo io;
        final long growth;
        final String filesOpen;
        try {
            store.open(directory, engine);
            final long sizeBefore = size(directory);
            ioBefore = ProcessIo.now();
            final Random random = new Random(SCALE_SEED);
            long nextRoundNanos = System.nanoTime();
            for (long change = 0; change < changes; change++) {
                if (kind == Changes.TESTBED_PUSH) {
                    workload.testbedChange(engine, change);
                } else {
                    workload.scaleChange(engine, random);
                }
                final long start = System.nanoTime();
                store.acknowledge();
                acknowledge.recordValue(System.nanoTime() - start);
                if (kind == Changes.TESTBED_PUSH && (change + 1) % workload.connections() == 0) {
                    nextRoundNanos += ROUND_NANOS;
                    TimeUnit.NANOSECONDS.sleep(Math.max(0, nextRoundNanos - System.nanoTime()));
                }
            }
            io = ProcessIo.now().minus(ioBefore);
            growth = size(directory) - sizeBefore;
            filesOpen = files(directory);
        } finally {
            store.close();
        }
        final String filesClosed = files(directory);
        final List<MibReading> saved = engine.table().rows().stream().map(ConnectionRow::latest).toList();
        final UpdateEngine restored = workload.emptyEngine();
        final int count = ComparedStore.named(storeName).restore(directory, restored, workload.maxHistogramBins());
        if (count != workload.connections()
            || !saved.equals(restored.table().rows().stream().map(ConnectionRow::latest).toList())) {
            throw new IllegalStateException(storeName + ": restored " + count + " connections, not the table as it was saved");
        }
        return new Result(store.name(), changes, io, growth, acknowledge, filesOpen, filesClosed,
            restoreInFreshJvm(workload, storeName, directory, work));
    }

    /**
     * Restores the store's files in a new JVM, as a server's start does (nothing loaded, nothing
     * compiled): {@link #restoreChild}.
     *
     * @return the restore's time in that JVM, ms (the configuration's loading not counted)
     */
    private static double restoreInFreshJvm(final StoreWorkload workload, final String storeName, final Path directory,
                                            final Path work) throws Exception {
        final Path output = work.resolve(storeName + "-restore.out");
        final Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
            System.getProperty("java.class.path"), StateStoreComparisonHarness.class.getName(), "restore", storeName,
            directory.toString(), workload.argument())
            .redirectOutput(output.toFile()).redirectError(work.resolve(storeName + "-restore.log").toFile()).start();
        if (!child.waitFor(10, TimeUnit.MINUTES) || child.exitValue() != 0) {
            child.destroyForcibly();
            // the work directory goes when the harness ends: the child's last words travel in the message
            final String log = Files.readString(work.resolve(storeName + "-restore.log"));
            throw new IllegalStateException(storeName + ": the restore in a new JVM failed: "
                + log.substring(Math.max(0, log.length() - 2_000)));
        }
        final String[] words = Files.readString(output).trim().split(" ");
        if (Integer.parseInt(words[1]) != workload.connections()) {
            throw new IllegalStateException(storeName + ": a new JVM restored " + words[1] + " connections");
        }
        return Double.parseDouble(words[2]);
    }

    /**
     * The new JVM's part: builds the workload's empty engine, restores the directory into it and
     * prints {@code restored COUNT MILLIS}.
     */
    static void restoreChild(final String storeName, final Path directory, final String workload) throws Exception {
        final StoreWorkload restoring = StoreWorkload.named(workload, Files.createDirectories(directory.resolveSibling(
            directory.getFileName() + ".config")));
        final UpdateEngine engine = restoring.emptyEngine();
        final long start = System.nanoTime();
        final int count = ComparedStore.named(storeName).restore(directory, engine, restoring.maxHistogramBins());
        System.out.printf(java.util.Locale.ROOT, "restored %d %.1f%n", count, (System.nanoTime() - start) / 1e6);
    }

    /** @return the bytes of the regular files in the directory */
    static long size(final Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> {
                try {
                    return Files.size(file);
                } catch (IOException e) {
                    return 0; // deleted while listed (a journal replaced by a compaction)
                }
            }).sum();
        }
    }

    /** @return "name size, …" of the directory's files, by name */
    static String files(final Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().map(file -> {
                try {
                    return file.getFileName() + " " + Files.size(file);
                } catch (IOException e) {
                    return file.getFileName() + " (gone)";
                }
            }).collect(Collectors.joining(", "));
        }
    }
}
