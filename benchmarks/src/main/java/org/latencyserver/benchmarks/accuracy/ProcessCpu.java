package org.latencyserver.benchmarks.accuracy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

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
            final String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
            final long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // fields 14 and 15: utime, stime
            return OptionalLong.of(ticks * 1_000_000_000L / CLOCK_TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
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
