package org.latencyserver.benchmarks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.latencyserver.benchmarks.accuracy.ProcessCpu;

/**
 * CPU of every partition's server (whole process and by thread name) and of the emulator over a stretch of time, for
 * {@link PartitionsScaleHarness}: {@link #open} reads the counters at its start, {@link #close} the shares of one core
 * used since.
 *
 * <p>Not changed once opened until {@link #close}; used on the harness's main thread only.
 *
 * @param startNanos   when it opened, {@link System#nanoTime()}
 * @param processNanos each server's process CPU at the start, ns, by partition name
 * @param threadNanos  each server's CPU by thread name at the start, ns, by partition name
 * @param partitions   the partitions followed
 * @param emulatorPid  the SNMP emulator's process
 * @param emulatorNanos its CPU at the start, ns
 */
record CpuWindow(long startNanos, Map<String, Long> processNanos, Map<String, Map<String, Long>> threadNanos,
                 List<ScalePartition> partitions, long emulatorPid, long emulatorNanos) {

    static CpuWindow open(final List<ScalePartition> partitions, final long emulatorPid) {
        final Map<String, Long> process = new LinkedHashMap<>();
        final Map<String, Map<String, Long>> threads = new LinkedHashMap<>();
        for (final ScalePartition partition : partitions) {
            process.put(partition.name, ProcessCpu.cpuNanos(partition.ready.pid()).orElse(0));
            threads.put(partition.name, ProcessCpu.cpuNanosByThreadName(partition.ready.pid()));
        }
        return new CpuWindow(System.nanoTime(), process, threads, partitions, emulatorPid,
            ProcessCpu.cpuNanos(emulatorPid).orElse(0));
    }

    /** The shares of one core over the window. */
    record Closed(double seconds, Map<String, Double> processCores, Map<String, Double> pollerCores,
                  Map<String, String> topThreads, double emulatorCores) {
    }

    Closed close() {
        final double seconds = (System.nanoTime() - startNanos) / 1e9;
        final Map<String, Double> process = new LinkedHashMap<>();
        final Map<String, Double> poller = new LinkedHashMap<>();
        final Map<String, String> top = new LinkedHashMap<>();
        for (final ScalePartition partition : partitions) {
            final long pid = partition.ready.pid();
            process.put(partition.name, (ProcessCpu.cpuNanos(pid).orElse(0) - processNanos.get(partition.name)) / 1e9 / seconds);
            final Map<String, Long> before = threadNanos.get(partition.name);
            final Map<String, Long> used = new LinkedHashMap<>();
            ProcessCpu.cpuNanosByThreadName(pid).forEach((name, nanos) -> used.put(name, nanos - before.getOrDefault(name, 0L)));
            poller.put(partition.name, used.entrySet().stream()
                .filter(e -> e.getKey().startsWith("snmp-poller") || e.getKey().startsWith("DefaultUDPTrans"))
                .mapToLong(Map.Entry::getValue).sum() / 1e9 / seconds);
            top.put(partition.name, used.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(4)
                .map(e -> String.format(Locale.ROOT, "%s %.1f%%", e.getKey(), 100 * e.getValue() / 1e9 / seconds))
                .reduce((a, b) -> a + ", " + b).orElse(""));
        }
        return new Closed(seconds, process, poller, top,
            (ProcessCpu.cpuNanos(emulatorPid).orElse(0) - emulatorNanos) / 1e9 / seconds);
    }
}
