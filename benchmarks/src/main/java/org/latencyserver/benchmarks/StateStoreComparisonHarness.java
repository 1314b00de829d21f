package org.latencyserver.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.latencyserver.benchmarks.StoreComparisonRun.Changes;
import org.latencyserver.benchmarks.StoreComparisonRun.Result;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.server.persistence.RecordAccess;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The server's state store (state file and journal) weighed against two embedded stores at the
 * same guarantee — an acknowledged change survives {@code kill -9} of the process, not a power cut:
 * SQLite in WAL mode with {@code synchronous=NORMAL} (xerial sqlite-jdbc) and H2's MVStore with an
 * explicit commit per change ({@link org.latencyserver.benchmarks.stores.ComparedStore}). All three
 * are given the same table and the same changes ({@link StoreWorkload}), one store after the other in
 * this process ({@link StoreComparisonRun}); then each one's guarantee is checked by killing a child
 * process that writes through it ({@link StoreKillCheck}).
 *
 * <p>Run from the repository root: {@code java -cp benchmarks/target/benchmarks.jar
 * org.latencyserver.benchmarks.StateStoreComparisonHarness [TESTBED_SECONDS [SCALE_CHANGES [CONNECTIONS [KILLS]]]]}
 * (defaults 20, 50000, 25000, 5; a 0 skips that part); {@code -Dstore.comparison.stores=journal,sqlite,mvstore}
 * sets the stores and their order (the first is the reference of the ratios). The stores' files are in a temporary
 * directory, printed at start and deleted at the end, under {@code -Dstore.comparison.dir=DIR} if given (it must be on a
 * disk, not a tmpfs, for the page counts to mean anything). Linux only ({@code /proc/self/io}).
 */
public final class StateStoreComparisonHarness {

    /** The stores, in the order they run (the first is the ratios' reference): {@code -Dstore.comparison.stores=a,b,c}. */
    private static final List<String> STORES = List.of(System.getProperty("store.comparison.stores", "journal,sqlite,mvstore")
        .split(","));

    private StateStoreComparisonHarness() {
    }

    /**
     * @param args see the class comment; {@code child STORE DIRECTORY} is the kill check's child,
     *             {@code restore STORE DIRECTORY WORKLOAD} the restore in a new JVM
     * @throws Exception when a store fails or loses an acknowledged change
     */
    public static void main(final String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("child")) {
            StoreKillCheck.child(args[1], Path.of(args[2]));
            return;
        }
        if (args.length == 4 && args[0].equals("restore")) {
            StoreComparisonRun.restoreChild(args[1], Path.of(args[2]), args[3]);
            return;
        }
        final int testbedSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        final long scaleChanges = args.length > 1 ? Long.parseLong(args[1]) : 50_000;
        final int connections = args.length > 2 ? Integer.parseInt(args[2]) : 25_000;
        final int kills = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        final Path parent = Path.of(System.getProperty("store.comparison.dir", System.getProperty("java.io.tmpdir"))).toAbsolutePath();
        try (TemporaryDirectory scratch = TemporaryDirectory.createIn(parent, "store-comparison")) {
            final Path work = scratch.path();
            System.out.printf(Locale.ROOT, "files in %s; load average %s%n", work, load());
            final StoreWorkload testbed = StoreWorkload.testbed(work);
            if (testbedSeconds > 0) {
                printRecordSizes(testbed);
                compare(testbed, Changes.TESTBED_PUSH, testbedSeconds * 10L * testbed.connections(), work);
            }
            if (scaleChanges > 0) {
                final StoreWorkload scale = StoreWorkload.scale(work, connections);
                printRecordSizes(scale);
                compare(scale, Changes.RANDOM_FLAT_OUT, scaleChanges, work);
            }
            if (kills > 0) {
                killCheck(testbed, kills, work);
            }
        }
    }

    private static void compare(final StoreWorkload workload, final Changes kind, final long changes, final Path work)
        throws Exception {
        final List<Result> results = new ArrayList<>();
        for (final String store : STORES) {
            final String loadBefore = load();
            results.add(StoreComparisonRun.run(workload, store, kind, changes, work));
            System.out.printf(Locale.ROOT, "  %s done (load average before %s, after %s)%n", store, loadBefore, load());
        }
        System.out.printf(Locale.ROOT, "%s, %d changes (%s), each acknowledged before the next:%n", workload.name(), changes, kind);
        System.out.println("| store | ack p50 / p99 / max, us | written per change (wchar) | pages dirtied per change (write_bytes) "
            + "| write calls per change | file growth per change | restore, ms | files open | files after close |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        final Result reference = results.get(0);
        for (final Result r : results) {
            final Histogram ack = r.acknowledgeNanos();
            System.out.printf(Locale.ROOT, "| %s | %.0f / %.0f / %.0f (p50 x%.2f) | %,.0f (x%.2f) | %,.0f (x%.2f) | %.2f | %,.0f | %.0f | %s | %s |%n",
                r.store(), us(ack, 50), us(ack, 99), ack.getMaxValue() / 1e3, us(ack, 50) / us(reference.acknowledgeNanos(), 50),
                perChange(r.io().wcharBytes(), r), ratio(r.io().wcharBytes(), reference.io().wcharBytes()),
                perChange(r.io().writeBytes(), r), ratio(r.io().writeBytes(), reference.io().writeBytes()),
                perChange(r.io().writeCalls(), r), perChange(r.fileGrowthBytes(), r), r.restoreMillis(), r.filesOpen(),
                r.filesClosed());
        }
    }

    private static void killCheck(final StoreWorkload testbed, final int kills, final Path work) throws Exception {
        System.out.printf(Locale.ROOT, "kill -9 of a child acknowledging changes of the testbed's table, %d kills per store "
            + "(load average %s):%n", kills, load());
        boolean held = true;
        for (final String store : STORES) {
            final StoreKillCheck.Outcome outcome = StoreKillCheck.check(testbed, store, kills, work);
            System.out.printf(Locale.ROOT, "  %s: %d kills after %d acknowledged changes in all: %s%n", outcome.store(),
                outcome.kills(), outcome.acknowledged(), outcome.lost() == 0 ? "every acknowledged change was there"
                    : outcome.lost() + " connections LOST their last acknowledged change");
            outcome.failures().forEach(failure -> System.out.println("    " + failure));
            held &= outcome.lost() == 0;
        }
        if (!held) {
            throw new IllegalStateException("a store lost an acknowledged change");
        }
    }

    private static void printRecordSizes(final StoreWorkload workload) {
        final List<ConnectionRow> rows = workload.preparedEngine().table().rows();
        final long total = rows.stream().mapToLong(row -> RecordAccess.wholeRecord(row).length).sum();
        final StringBuilder each = new StringBuilder();
        if (rows.size() <= 10) {
            for (final ConnectionRow row : rows) {
                each.append(String.format(Locale.ROOT, " %d (QoS %d): %,d B;", row.spec().indexRef(), row.spec().qos(),
                    RecordAccess.wholeRecord(row).length));
            }
        }
        System.out.printf(Locale.ROOT, "%s: %d connections, whole records %,d B in all, %,.0f B each on average;%s%n", workload.name(),
            rows.size(), total, (double) total / rows.size(), each);
    }

    private static double us(final Histogram histogram, final double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1e3;
    }

    private static double perChange(final long count, final Result result) {
        return (double) count / result.changes();
    }

    private static double ratio(final long value, final long reference) {
        return reference == 0 ? Double.NaN : (double) value / reference;
    }

    /** @return the 1, 5 and 15 minute load averages */
    static String load() {
        try {
            final String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (java.io.IOException e) {
            return "n/a";
        }
    }
}
