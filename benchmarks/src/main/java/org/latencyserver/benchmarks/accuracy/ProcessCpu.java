package org.latencyserver.benchmarks.accuracy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * CPU time of another process, from {@code /proc/PID/stat} (utime + stime, all its threads), so
 * that a share of one core over an interval is two readings apart.
 */
public final class ProcessCpu {

    private static final long CLOCK_TICKS_PER_SECOND = clockTicksPerSecond();

    private ProcessCpu() {
    }

    /**
     * @param pid the process
     * @return its CPU time so far in ns; empty when it is gone or /proc cannot be read
     */
    public static OptionalLong cpuNanos(final long pid) {
        try {
            return OptionalLong.of(statCpuNanos(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * @param pid a process
     * @return CPU time (user + system, ns) of its threads, summed by thread name (the kernel's 15-character
     *         {@code comm}, e.g. {@code snmp-poller}); empty when the process is gone
     */
    public static Map<String, Long> cpuNanosByThreadName(final long pid) {
        final Map<String, Long> byName = new TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (final Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    final String stat = Files.readString(task.resolve("stat"));
                    byName.merge(stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')), statCpuNanos(stat), Long::sum);
                } catch (IOException | RuntimeException threadGone) {
                    // The thread ended between the listing and the read.
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return byName;
    }

    /** @return utime + stime of a {@code stat} line, in ns */
    private static long statCpuNanos(final String stat) {
        // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        final long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // fields 14 and 15: utime, stime
        return ticks * 1_000_000_000L / CLOCK_TICKS_PER_SECOND;
    }

    private static long clockTicksPerSecond() {
        try {
            final Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            final String output = new String(getconf.getInputStream().readAllBytes()).trim();
            return getconf.waitFor() == 0 ? Long.parseLong(output) : 100;
        } catch (IOException | RuntimeException e) {
            return 100; // Linux's USER_HZ nearly everywhere
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
