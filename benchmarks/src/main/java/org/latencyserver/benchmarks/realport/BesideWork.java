package org.latencyserver.benchmarks.realport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What else ran on the machine during a run: the CPU time every process used between two snapshots of
 * {@code /proc}, split into the harness's own (itself, its descendants, and whatever runs in its testbed's
 * namespaces) and the rest. Linux only.
 *
 * <p>Not thread-safe: one owner.
 */
public final class BesideWork {

    private static final double TICKS_PER_SECOND = 100.0;

    /** CPU ticks by pid, with each process's command for the report, and the machine's busy ticks (all cores). */
    private record Snapshot(long epochMillis, Map<Long, Long> ticks, Map<Long, String> commands, long machineBusy) {
    }

    /**
     * One process's use of the machine over the run.
     *
     * @param command   its command line, shortened
     * @param cpuShare  CPU time over the run's wall time (1.0 = one core)
     */
    public record Use(String command, double cpuShare) {
    }

    /**
     * @param seconds   the run's wall time
     * @param loadStart the 1-minute load average at the start
     * @param loadEnd   at the end
     * @param machine   the whole machine's busy time (all processes, the kernel's forwarding included), in cores
     * @param ours      the harness's processes that were still running at the end, in cores
     * @param others    the machine's busy time less ours, in cores (processes that ended meanwhile included)
     * @param top       the other processes still running at the end that used the most, highest first
     */
    public record Report(double seconds, double loadStart, double loadEnd, double machine, double ours, double others, List<Use> top) {

        /** @return one paragraph for people */
        public String describe() {
            return String.format(Locale.ROOT, "over %.0f s the machine was busy %.2f of its %d cores: the harness, its demo and testbed"
                    + " %.2f, everything else %.2f (1-min load average %.2f at the start, %.2f at the end)%s", seconds, machine,
                Runtime.getRuntime().availableProcessors(), ours, others, loadStart, loadEnd,
                top.isEmpty() ? "" : "; the busiest others: " + top.stream().map(u -> String.format(Locale.ROOT, "%s %.2f", u.command(),
                    u.cpuShare())).collect(Collectors.joining("; ")));
        }
    }

    private final String namespacePrefix;
    private Snapshot start;
    private double loadStart;

    /** @param namespacePrefix the testbed's namespaces' prefix, e.g. {@code lt-rp-}: what runs in them is the harness's */
    public BesideWork(final String namespacePrefix) {
        this.namespacePrefix = namespacePrefix;
    }

    /** Takes the first snapshot. */
    public void begin() {
        start = snapshot();
        loadStart = loadAverage();
    }

    /**
     * @param top how many of the other processes to name
     * @return what ran since {@link #begin()}
     */
    public Report end(final int top) {
        final Snapshot end = snapshot();
        final Set<Long> ours = ours();
        final double seconds = Math.max(0.001, (end.epochMillis() - start.epochMillis()) / 1000.0);
        double ourCores = 0;
        final List<Use> others = new ArrayList<>();
        for (final Map.Entry<Long, Long> e : end.ticks().entrySet()) {
            final long used = e.getValue() - start.ticks().getOrDefault(e.getKey(), 0L);
            final double cores = used / TICKS_PER_SECOND / seconds;
            if (ours.contains(e.getKey())) {
                ourCores += cores;
            } else {
                if (cores >= 0.02) {
                    others.add(new Use(end.commands().get(e.getKey()), cores));
                }
            }
        }
        others.sort((a, b) -> Double.compare(b.cpuShare(), a.cpuShare()));
        final double machine = (end.machineBusy() - start.machineBusy()) / TICKS_PER_SECOND / seconds;
        return new Report(seconds, loadStart, loadAverage(), machine, ourCores, Math.max(0, machine - ourCores),
            others.subList(0, Math.min(top, others.size())));
    }

    /** @return this process, its descendants, and every process in a namespace of the testbed */
    private Set<Long> ours() {
        final Set<Long> ours = new java.util.HashSet<>();
        ours.add(ProcessHandle.current().pid());
        ProcessHandle.current().descendants().forEach(p -> ours.add(p.pid()));
        final Set<String> testbedNetns = new java.util.HashSet<>();
        try (Stream<Path> names = Files.list(Path.of("/run/netns"))) {
            names.filter(p -> p.getFileName().toString().startsWith(namespacePrefix)).forEach(p -> {
                try {
                    testbedNetns.add(Files.readAttributes(p, "unix:ino").get("ino").toString());
                } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                    // gone meanwhile
                }
            });
        } catch (IOException e) {
            // no namespaces
        }
        for (final long pid : pids()) {
            try {
                final String link = Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns", "net")).toString();
                final String inode = link.replaceAll("\\D", "");
                if (testbedNetns.contains(inode)) {
                    ours.add(pid);
                }
            } catch (IOException | RuntimeException e) {
                // gone, or not ours to read
            }
        }
        return ours;
    }

    private static List<Long> pids() {
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            return entries.map(p -> p.getFileName().toString()).filter(n -> n.chars().allMatch(Character::isDigit)).map(Long::parseLong)
                .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static Snapshot snapshot() {
        final Map<Long, Long> ticks = new HashMap<>();
        final Map<Long, String> commands = new HashMap<>();
        for (final long pid : pids()) {
            try {
                final String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                // after the command: state(3) ppid(4) ... utime(14) stime(15), 1-based over the whole line
                ticks.put(pid, Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
                final String cmdline = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ').strip();
                commands.put(pid, shorten(cmdline.isEmpty() ? stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')) : cmdline));
            } catch (IOException | RuntimeException e) {
                // ended meanwhile
            }
        }
        return new Snapshot(System.currentTimeMillis(), ticks, commands, machineBusy());
    }

    /** @return the machine's busy ticks over all cores since boot ({@code /proc/stat}: all but idle and iowait) */
    private static long machineBusy() {
        try {
            final String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < Math.min(f.length, 9); i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(f[i]);
                }
            }
            return busy;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** @return the program and, for a JVM, its main class (for Maven, its arguments), at most 80 characters */
    static String shorten(final String cmdline) {
        final String[] words = cmdline.split(" ");
        final Path first = Path.of(words[0]).getFileName();
        final String program = first == null ? words[0] : first.toString();
        String text = words.length > 1 ? program + " " + words[1] : program;
        if (program.equals("java")) {
            for (int i = 1; i < words.length; i++) {
                if (words[i].equals("-cp") || words[i].equals("-classpath")) {
                    i++;
                } else if (!words[i].startsWith("-")) {
                    text = words[i].startsWith("org.codehaus.plexus.classworlds")
                        ? "maven " + String.join(" ", java.util.Arrays.copyOfRange(words, i + 1, words.length))
                        : "java " + words[i].substring(words[i].lastIndexOf('.') + 1);
                    break;
                }
            }
        }
        return text.length() > 80 ? text.substring(0, 77) + "..." : text;
    }

    private static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
