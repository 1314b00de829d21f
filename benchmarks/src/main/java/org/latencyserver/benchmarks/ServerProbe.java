package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the harnesses read of a running server process from outside, beside its metrics page
 * ({@link org.latencyserver.testkit.MetricsText}): the quantile of two readings of a classic
 * histogram, its heap after a full GC ({@code jcmd}), its resident set and its threads' CPU time
 * ({@code /proc}). Linux only (reads {@code /proc}).
 *
 * <p>Stateless and thread-safe.
 */
final class ServerProbe {

    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");

    private ServerProbe() {
    }

    /**
     * @param later    cumulative buckets read later
     * @param earlier  the same read earlier
     * @param quantile 0..1
     * @return the upper bound of the classic bucket holding that quantile of the observations between the two
     *         readings (NaN when there were none), and their count
     */
    static double[] bucketQuantile(final TreeMap<Double, Double> later, final TreeMap<Double, Double> earlier,
                                   final double quantile) {
        final double total = later.isEmpty() ? 0 : later.lastEntry().getValue() - earlier.getOrDefault(later.lastKey(), 0.0);
        for (final Map.Entry<Double, Double> bucket : later.entrySet()) {
            if (total > 0 && bucket.getValue() - earlier.getOrDefault(bucket.getKey(), 0.0) >= quantile * total) {
                return new double[] {bucket.getKey(), total};
            }
        }
        return new double[] {Double.NaN, total};
    }

    /** @return what {@code jcmd PID COMMAND} printed */
    static String jcmd(final long pid, final String command) throws IOException, InterruptedException {
        final String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        final Process process = new ProcessBuilder(jcmd, Long.toString(pid), command).redirectErrorStream(true).start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(60, TimeUnit.SECONDS);
        return out;
    }

    /**
     * The heap a process holds live: a full GC ({@code GC.run}), then {@code GC.heap_info}'s "used".
     *
     * @param usedMiB     heap used after the GC, MiB (NaN when jcmd's answer had none)
     * @param residentMiB its resident set, MiB (-1 when unknown)
     * @param heapInfo    jcmd's heap lines (total and Metaspace), for the record
     */
    record Heap(double usedMiB, long residentMiB, String heapInfo) {

        static Heap afterGc(final long pid) throws IOException, InterruptedException {
            jcmd(pid, "GC.run");
            final String info = jcmd(pid, "GC.heap_info");
            final Matcher used = HEAP_USED.matcher(info);
            final StringBuilder lines = new StringBuilder();
            for (final String line : info.split("\n")) {
                if (line.contains("total") || line.contains("Metaspace")) {
                    lines.append("    ").append(line.trim()).append('\n');
                }
            }
            return new Heap(used.find() ? Long.parseLong(used.group(1)) / 1024.0 : Double.NaN, statusKib(pid, "VmRSS:") / 1024,
                lines.toString());
        }

        String describe() {
            return String.format(Locale.ROOT, "heap after GC.run %.1f MiB, resident %d MiB", usedMiB, residentMiB);
        }
    }

    /** @return a figure of /proc/PID/status (kB for memory, a count for {@code Threads:}), or -1 */
    static long statusKib(final long pid, final String key) {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(key)) {
                    return Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

}
