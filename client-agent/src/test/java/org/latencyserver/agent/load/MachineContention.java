package org.latencyserver.agent.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What other work on this machine does to a load-driven test: the one place the load-driven tests
 * (the profiler's, thesis test 4) wait for quiet cores and tell contention from a product fault.
 *
 * <p>Why it exists: those tests drive each core to a CPU state with real load, and the product
 * refuses a state it could not reach. Beside other work (another build, {@code stress-ng}) that
 * refusal is the right answer, and a test that expected success would fail the product for doing
 * the right thing. So a test first {@linkplain #awaitQuietCores waits, bounded,} for every core to
 * be quiet (from {@code /proc/stat}), and while the product runs it {@linkplain #sampleOtherWork
 * samples} the CPU time of processes outside this JVM's own process tree (from
 * {@code /proc/PID/stat}). A refusal is accepted only when that other work reached
 * {@link #CONTENTION_PERCENT_OF_A_CORE}; on a quiet machine a refusal still fails the test.
 *
 * <p>Linux only. Tick counts are the kernel's USER_HZ in both files, so percentages need no clock
 * rate. A window's reading may exceed the core count by a few per cent (seen: 221 % on 2 cores):
 * process times are kept exactly and shown in ticks, a core's are counted tick by tick, and the
 * processes are read one after another; the threshold is far from either edge.
 */
public final class MachineContention {

    /**
     * Other work, percent of one core, that counts as contention; and the most a core may be busy
     * to count as quiet. Below the smallest gap between a state's target and the edge of its band
     * (MEDIUM: 50 % against 33.5 % and 66.5 %, 16.5 points), so less could not push a driven core
     * out of its state by itself.
     */
    public static final double CONTENTION_PERCENT_OF_A_CORE = 15;

    private static final long WINDOW_MILLIS = 1_000;
    private static final int QUIET_WINDOWS_NEEDED = 2;

    private MachineContention() {
    }

    /**
     * Waits until every core has been at most {@link #CONTENTION_PERCENT_OF_A_CORE} busy for two
     * one-second windows in a row, or {@code limit} has passed.
     *
     * @return whether they were quiet, how long it took, and the last reading (for the test's report)
     */
    public static QuietCores awaitQuietCores(final Duration limit) throws IOException, InterruptedException {
        final long startNanos = System.nanoTime();
        final long endNanos = startNanos + limit.toNanos();
        int quietWindows = 0;
        double[] busy;
        do {
            final CoreUtilisation before = CoreUtilisation.read();
            Thread.sleep(WINDOW_MILLIS);
            final CoreUtilisation after = CoreUtilisation.read();
            busy = new double[after.coreCount()];
            boolean quiet = true;
            for (int core = 0; core < busy.length; core++) {
                busy[core] = after.percentSince(before, core);
                quiet &= !(busy[core] > CONTENTION_PERCENT_OF_A_CORE);
            }
            quietWindows = quiet ? quietWindows + 1 : 0;
        } while (quietWindows < QUIET_WINDOWS_NEEDED && System.nanoTime() < endNanos);
        return new QuietCores(quietWindows >= QUIET_WINDOWS_NEEDED, (System.nanoTime() - startNanos) / 1_000_000, busy);
    }

    /**
     * Starts sampling other work in one-second windows on a daemon thread until closed.
     */
    public static OtherWork sampleOtherWork() throws IOException {
        return new OtherWork();
    }

    /**
     * The outcome of {@link #awaitQuietCores}.
     *
     * @param quiet             every core was quiet for two windows in a row within the limit
     * @param waitedMillis      how long the wait took
     * @param lastBusyPercent   each core's utilisation over the last window, percent
     */
    public record QuietCores(boolean quiet, long waitedMillis, double[] lastBusyPercent) {

        /** @return one line for the test's output, saying which way it went */
        public String describe() {
            final StringBuilder cores = new StringBuilder();
            for (int core = 0; core < lastBusyPercent.length; core++) {
                cores.append(String.format(Locale.ROOT, "%score %d %.0f %%", core == 0 ? "" : ", ", core, lastBusyPercent[core]));
            }
            return quiet
                ? String.format(Locale.ROOT, "cores quiet after %.1f s (%s)", waitedMillis / 1e3, cores)
                : String.format(Locale.ROOT, "cores NOT quiet within %.0f s (last second: %s); running beside the other work,"
                    + " so a state it makes unreachable may be refused", waitedMillis / 1e3, cores);
        }
    }

    /**
     * CPU time of the processes outside this JVM and its descendants, sampled in one-second
     * windows: its peak and mean, percent of one core. Each process counts its own threads only,
     * not its reaped children (a child's time would count twice: live, then again in its parent
     * when reaped); a process that ends within a window loses that window's share, and one that
     * lives less than a window may be missed, so other work is read low, never high. Thread-safe:
     * the sampler thread writes, the readers read under the lock.
     */
    public static final class OtherWork implements AutoCloseable {

        private final Thread sampler;
        private double peakPercent;
        private double sumPercent;
        private int windows;
        private volatile boolean stopping;

        private OtherWork() throws IOException {
            Snapshot first = Snapshot.take(); // fails here, not on the thread, when /proc cannot be read
            sampler = new Thread(() -> run(first), "other-work-sampler");
            sampler.setDaemon(true);
            sampler.start();
        }

        private void run(final Snapshot first) {
            Snapshot previous = first;
            while (!stopping) {
                try {
                    Thread.sleep(WINDOW_MILLIS);
                    final Snapshot next = Snapshot.take();
                    final double percent = next.otherWorkPercentSince(previous);
                    synchronized (this) {
                        peakPercent = Math.max(peakPercent, percent);
                        sumPercent += percent;
                        windows++;
                    }
                    previous = next;
                } catch (final InterruptedException e) {
                    return;
                } catch (final IOException e) {
                    // a process that ended between listing and reading is skipped in Snapshot; /proc/stat itself
                    // unreadable ends sampling, and the peak so far stands
                    return;
                }
            }
        }

        /** @return the highest one-second share of other work so far, percent of one core */
        public synchronized double peakPercentOfACore() {
            return peakPercent;
        }

        /** @return whether other work reached {@link #CONTENTION_PERCENT_OF_A_CORE} in some window */
        public synchronized boolean contended() {
            return peakPercent >= CONTENTION_PERCENT_OF_A_CORE;
        }

        /** @return one line for the test's output */
        public synchronized String describe() {
            return String.format(Locale.ROOT, "other work on this machine: peak %.0f %%, mean %.0f %% of a core over %d s", peakPercent,
                windows == 0 ? 0 : sumPercent / windows, windows);
        }

        @Override
        public void close() throws InterruptedException {
            stopping = true;
            sampler.interrupt();
            sampler.join(TimeUnit.SECONDS.toMillis(5));
        }
    }

    /** CPU ticks of every process outside this JVM's tree, and the machine's elapsed ticks per core. */
    private record Snapshot(Map<String, Long> otherTicksByProcess, Set<String> ownTree, long machineTicksPerCore) {

        private static final Path PROC = Path.of("/proc");

        static Snapshot take() throws IOException {
            final Set<String> own = new HashSet<>();
            final long self = ProcessHandle.current().pid();
            own.add(Long.toString(self));
            ProcessHandle.current().descendants().forEach(p -> own.add(Long.toString(p.pid())));
            final Map<String, Long> other = new HashMap<>();
            try (Stream<Path> entries = Files.list(PROC)) {
                for (final Path entry : (Iterable<Path>) entries::iterator) {
                    final String pid = entry.getFileName().toString();
                    if (!pid.chars().allMatch(Character::isDigit) || own.contains(pid)) {
                        continue;
                    }
                    final String stat;
                    try {
                        stat = Files.readString(entry.resolve("stat"));
                    } catch (final IOException ended) {
                        continue;
                    }
                    // after the command name in parentheses: field 3 (state) is [0]; utime and stime are
                    // fields 14 and 15, starttime 22 (a pid reused by a new process is another key)
                    final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    final long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    other.put(pid + "@" + fields[19], ticks);
                }
            }
            final String cpu = Files.readAllLines(PROC.resolve("stat")).get(0);
            final String[] fields = cpu.trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < Math.min(fields.length, 9); i++) {
                total += Long.parseLong(fields[i]);
            }
            return new Snapshot(other, own, total / CoreUtilisation.read().coreCount());
        }

        /** @return CPU time of other processes between the snapshots, percent of one core */
        double otherWorkPercentSince(final Snapshot earlier) {
            final long elapsed = machineTicksPerCore - earlier.machineTicksPerCore;
            if (elapsed <= 0) {
                return 0;
            }
            long ticks = 0;
            for (final Map.Entry<String, Long> process : otherTicksByProcess.entrySet()) {
                final String pid = process.getKey().substring(0, process.getKey().indexOf('@'));
                if (earlier.ownTree.contains(pid)) {
                    continue; // ours when the window began (a driver since reparented): not other work
                }
                ticks += process.getValue() - earlier.otherTicksByProcess.getOrDefault(process.getKey(), 0L);
            }
            return 100.0 * ticks / elapsed;
        }
    }
}
