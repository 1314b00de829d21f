package org.latencyserver.benchmarks.accuracy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Whether this machine is quiet enough for a measured run on the testbed, and what runs beside one:
 * no other testbed's namespace ({@code lt-*} in {@code ip netns list}, save this run's own) and a
 * 1-minute load average below a limit. The testbed's hosts share the machine's two cores: another
 * testbed's iperf3 or a build beside the run moves both the port and the CPU states.
 *
 * <p>Stateless apart from its settings; thread-safe.
 */
public final class QuietMachine {

    /**
     * One look at the machine.
     *
     * @param load1           the 1-minute load average
     * @param otherNamespaces other testbeds' namespaces ({@code lt-*}, not this run's)
     */
    public record Reading(double load1, List<String> otherNamespaces) {

        /** @return e.g. "load 0.42, no other testbed" */
        public String describe() {
            return String.format(Locale.ROOT, "load %.2f, %s", load1,
                otherNamespaces.isEmpty() ? "no other testbed" : "other testbeds' namespaces " + otherNamespaces);
        }
    }

    /**
     * What a wait came to.
     *
     * @param quiet   whether the machine was quiet at the end
     * @param waited  how long it waited
     * @param last    the last reading
     */
    public record Outcome(boolean quiet, Duration waited, Reading last) {
    }

    private final double maxLoad1;
    private final List<String> ownPrefixes;

    /**
     * @param maxLoad1    the 1-minute load average must be below this
     * @param ownPrefixes namespace prefixes of this run's own testbeds (e.g. {@code lt-acc-}), not counted
     */
    public QuietMachine(final double maxLoad1, final List<String> ownPrefixes) {
        this.maxLoad1 = maxLoad1;
        this.ownPrefixes = List.copyOf(ownPrefixes);
    }

    /**
     * @param reading a look at the machine
     * @return why it is not quiet, or empty when it is
     */
    public Optional<String> busy(final Reading reading) {
        final List<String> reasons = new ArrayList<>();
        if (!reading.otherNamespaces().isEmpty()) {
            reasons.add("other testbeds' namespaces exist " + reading.otherNamespaces());
        }
        if (!(reading.load1() < maxLoad1)) {
            reasons.add(String.format(Locale.ROOT, "the 1-minute load average is %.2f (not below %.2f)", reading.load1(), maxLoad1));
        }
        return reasons.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", reasons));
    }

    /**
     * @param ipNetnsList the output of {@code ip netns list} (e.g. {@code "lt-pw-ws1 (id: 3)"} per line)
     * @param load1       the 1-minute load average
     * @return the reading, other testbeds' namespaces only
     */
    public Reading reading(final String ipNetnsList, final double load1) {
        final List<String> others = new ArrayList<>();
        for (final String line : ipNetnsList.lines().toList()) {
            final String name = line.strip().split("\\s+")[0];
            if (name.startsWith("lt-") && ownPrefixes.stream().noneMatch(name::startsWith)) {
                others.add(name);
            }
        }
        return new Reading(load1, List.copyOf(others));
    }

    /** @return a look at this machine now */
    public Reading readNow() throws IOException, InterruptedException {
        final String loadavg = Files.readString(Path.of("/proc/loadavg"));
        return reading(run(List.of("ip", "netns", "list")), Double.parseDouble(loadavg.split("\\s+")[0]));
    }

    /**
     * Waits until the machine is quiet, looking every {@code poll}, at most {@code max}.
     *
     * @param log where each look is said
     * @return quiet or not at the end, and the last reading
     */
    public Outcome await(final Duration max, final Duration poll, final PrintStream log) throws IOException, InterruptedException {
        final long startNanos = System.nanoTime();
        while (true) {
            final Reading reading = readNow();
            final Optional<String> busy = busy(reading);
            final Duration waited = Duration.ofNanos(System.nanoTime() - startNanos);
            if (busy.isEmpty()) {
                log.printf(Locale.ROOT, "quiet machine: %s after %d s%n", reading.describe(), waited.toSeconds());
                return new Outcome(true, waited, reading);
            }
            if (waited.plus(poll).compareTo(max) > 0) {
                log.printf(Locale.ROOT, "quiet machine: NOT quiet after %d s (%s): running anyway%n", waited.toSeconds(), busy.get());
                return new Outcome(false, waited, reading);
            }
            log.printf(Locale.ROOT, "quiet machine: waiting (%s; %d s so far, at most %d s)%n", busy.get(), waited.toSeconds(),
                max.toSeconds());
            Thread.sleep(poll.toMillis());
        }
    }

    /**
     * What runs beside: the reading, the machine's CPU over one second and the busiest processes then
     * ({@code top}'s second sample), one line.
     *
     * @return e.g. "load 1.20, no other testbed; %Cpu(s): 24.7 us, …; busiest: 2009 16.0 java | …"
     */
    public String besideNow() throws IOException, InterruptedException {
        final Reading reading = readNow();
        final List<String> lines = run(List.of("top", "-b", "-n", "2", "-d", "1", "-w", "200")).lines().toList();
        int second = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("top -")) {
                second = i;
            }
        }
        final List<String> sample = second < 0 ? List.of() : lines.subList(second, lines.size());
        final String cpu = sample.stream().filter(line -> line.startsWith("%Cpu")).findFirst().orElse("%Cpu n/a").strip();
        final List<String> busiest = new ArrayList<>();
        boolean table = false;
        for (final String line : sample) {
            if (line.strip().startsWith("PID")) {
                table = true;
            } else if (table && busiest.size() < 6 && !line.isBlank()) {
                final String[] f = line.strip().split("\\s+");
                if (f.length >= 12) {
                    busiest.add(f[0] + " " + f[8] + " % " + f[11]);
                }
            }
        }
        return reading.describe() + "; " + cpu + "; busiest (pid %CPU command): " + String.join(" | ", busiest);
    }

    private static String run(final List<String> command) throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish");
        }
        return output;
    }
}
