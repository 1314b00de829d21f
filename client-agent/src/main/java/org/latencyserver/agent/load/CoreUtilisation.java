package org.latencyserver.agent.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Per-core CPU utilisation from Linux's {@code /proc/stat}: busy = everything but idle and iowait,
 * over the time between two readings. This is how the profiler reads each emulated workstation's
 * achieved load when the two sides are pinned to their own cores of one machine (on real hosts
 * their SNMP agents report the same counters, UCD-SNMP-MIB ssCpuRaw*).
 *
 * <p>Immutable reading; take one before and one after a window and call {@link #percentSince}.
 */
public final class CoreUtilisation {

    private static final Path PROC_STAT = Path.of("/proc/stat");

    private final long[] busyTicks;
    private final long[] totalTicks;

    private CoreUtilisation(final long[] busyTicks, final long[] totalTicks) {
        this.busyTicks = busyTicks;
        this.totalTicks = totalTicks;
    }

    /**
     * @return the counters of every core now
     * @throws IOException when {@code /proc/stat} cannot be read (not Linux)
     */
    public static CoreUtilisation read() throws IOException {
        return parse(Files.readAllLines(PROC_STAT));
    }

    static CoreUtilisation parse(final List<String> lines) throws IOException {
        final List<String> cores = lines.stream().filter(l -> l.matches("cpu\\d+ .*")).toList();
        if (cores.isEmpty()) {
            throw new IOException("/proc/stat lists no cpuN lines");
        }
        final long[] busy = new long[cores.size()];
        final long[] total = new long[cores.size()];
        for (final String line : cores) {
            final String[] fields = line.trim().split("\\s+");
            final int core = Integer.parseInt(fields[0].substring(3));
            if (core >= busy.length || fields.length < 6) {
                throw new IOException("unexpected /proc/stat line: " + line);
            }
            long sum = 0;
            // user nice system idle iowait irq softirq steal (guest time is already in user)
            for (int i = 1; i < Math.min(fields.length, 9); i++) {
                sum += Long.parseLong(fields[i]);
            }
            final long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
            total[core] = sum;
            busy[core] = sum - idle;
        }
        return new CoreUtilisation(busy, total);
    }

    /** @return how many cores the machine reports */
    public int coreCount() {
        return busyTicks.length;
    }

    /**
     * @param earlier a reading taken before this one
     * @param core    the core, 0-based
     * @return its utilisation between the two readings, percent 0..100; NaN when no tick passed
     */
    public double percentSince(final CoreUtilisation earlier, final int core) {
        final long total = totalTicks[core] - earlier.totalTicks[core];
        if (total <= 0) {
            return Double.NaN;
        }
        return 100.0 * (busyTicks[core] - earlier.busyTicks[core]) / total;
    }
}
