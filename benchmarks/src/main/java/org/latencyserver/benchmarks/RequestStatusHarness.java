package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.ORB;

/**
 * End-to-end harness: {@code RequestStatus} on the real server against an empty JacORB two-way
 * call returning the same struct ({@link EmptyLatservMain}), each in its own JVM on loopback,
 * measured side by side in one run with 1 and 8 concurrent clients. Rounds alternate between
 * the two targets so that machine noise falls on both alike. Each call's round trip is recorded
 * in an HdrHistogram (ns); clients call back to back (closed loop), so p99 reflects service
 * time, not queueing from a fixed arrival rate (no coordinated-omission correction is needed or
 * applied).
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.RequestStatusHarness [SECONDS_PER_ROUND] [ROUNDS]}
 */
public final class RequestStatusHarness {

    private RequestStatusHarness() {
    }

    /**
     * @param args seconds per round (default 3), rounds per target and client count (default 4)
     * @throws Exception when a process or call fails
     */
    public static void main(final String[] args) throws Exception {
        final double secondsPerRound = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        final int[] clientCounts = args.length > 2 ? java.util.Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray()
            : new int[] {1, 8};
        final Path work = Files.createTempDirectory("latency-harness");
        final Path config = work.resolve("testbed.yaml");
        final Path profiles = locate("profiles").toAbsolutePath();
        Files.writeString(config, Files.readString(locate("examples/thesis-testbed.yaml"))
            .replace("../profiles/", profiles + "/"));
        final List<Process> processes = new ArrayList<>();
        try {
            processes.add(start(work, "server.log", "org.latencyserver.server.launch.ServerMain", "--config", config.toString(),
                "--ior-file", work.resolve("server.ior").toString(), "--metrics-port", "0"));
            processes.add(start(work, "empty.log", EmptyLatservMain.class.getName(), work.resolve("empty.ior").toString()));
            final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
            final Latserv server = LatservHelper.narrow(orb.string_to_object(awaitIor(work.resolve("server.ior"))));
            final Latserv empty = LatservHelper.narrow(orb.string_to_object(awaitIor(work.resolve("empty.ior"))));
            server.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 10, (short) 10), (short) 1);
            if (server.RequestStatus((short) 1).server_acknowledges_client != 1) {
                throw new IllegalStateException("the server serves no estimate for connection 1");
            }
            System.out.printf(Locale.ROOT, "RequestStatus vs empty two-way call, loopback, %d rounds x %.1f s per target%n",
                rounds, secondsPerRound);
            System.out.println("clients  target          calls/s     p50 us   p99 us   p99.9 us");
            for (final int clients : clientCounts) {
                final Histogram serverHistogram = new Histogram(3_600_000_000_000L, 3);
                final Histogram emptyHistogram = new Histogram(3_600_000_000_000L, 3);
                long serverCalls = 0;
                long emptyCalls = 0;
                run(server, clients, 1.0, new Histogram(3_600_000_000_000L, 3)); // warm-up
                run(empty, clients, 1.0, new Histogram(3_600_000_000_000L, 3));
                for (int round = 0; round < rounds; round++) {
                    serverCalls += run(server, clients, secondsPerRound, serverHistogram);
                    emptyCalls += run(empty, clients, secondsPerRound, emptyHistogram);
                }
                final double seconds = rounds * secondsPerRound;
                print(clients, "RequestStatus", serverCalls / seconds, serverHistogram);
                print(clients, "empty call", emptyCalls / seconds, emptyHistogram);
                System.out.printf(Locale.ROOT, "%7d  ratio p50 %.3f, p99 %.3f, throughput %.3f%n", clients,
                    (double) serverHistogram.getValueAtPercentile(50) / emptyHistogram.getValueAtPercentile(50),
                    (double) serverHistogram.getValueAtPercentile(99) / emptyHistogram.getValueAtPercentile(99),
                    serverCalls / (double) emptyCalls);
            }
            // Quiet under load: JacORB's pool warnings are counted, and the log holds one line per 10 s at most.
            final String log = Files.readString(work.resolve("server.log"));
            final long exhaustedLines = log.lines().filter(line -> line.contains("Thread pool exhausted")).count();
            final java.util.regex.Matcher url = java.util.regex.Pattern.compile("metrics at (http://\\S+)").matcher(log);
            String exhausted = "?";
            if (url.find()) {
                final java.util.regex.Matcher counter = java.util.regex.Pattern.compile(
                    "(?m)^latency_server_orb_thread_pool_exhausted_total (\\S+)$").matcher(new String(
                        java.net.URI.create(url.group(1)).toURL().openStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
                exhausted = counter.find() ? counter.group(1) : "?";
            }
            System.out.printf(Locale.ROOT, "server: thread pool exhausted %s times (counter); %d such lines and %d lines in all in"
                + " its log%n", exhausted, exhaustedLines, log.lines().count());
            orb.shutdown(false);
        } finally {
            for (final Process process : processes) {
                process.destroy();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static long run(final Latserv target, final int clients, final double seconds, final Histogram into)
        throws InterruptedException {
        final long endNanos = System.nanoTime() + (long) (seconds * 1e9);
        final CountDownLatch done = new CountDownLatch(clients);
        final Histogram[] perThread = new Histogram[clients];
        final long[] calls = new long[clients];
        for (int t = 0; t < clients; t++) {
            final int index = t;
            perThread[t] = new Histogram(3_600_000_000_000L, 3);
            final Thread thread = new Thread(() -> {
                try {
                    long n = 0;
                    while (System.nanoTime() < endNanos) {
                        final long start = System.nanoTime();
                        target.RequestStatus((short) 1);
                        perThread[index].recordValue(System.nanoTime() - start);
                        n++;
                    }
                    calls[index] = n;
                } finally {
                    done.countDown();
                }
            });
            thread.start();
        }
        done.await();
        long total = 0;
        for (int t = 0; t < clients; t++) {
            into.add(perThread[t]);
            total += calls[t];
        }
        return total;
    }

    private static void print(final int clients, final String target, final double callsPerSecond, final Histogram h) {
        System.out.printf(Locale.ROOT, "%7d  %-14s %9.0f %9.1f %9.1f %9.1f%n", clients, target, callsPerSecond,
            h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3);
    }

    private static Process start(final Path work, final String log, final String main, final String... args) throws IOException {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path")));
        // -Dharness.server.options="-Djacorb.poa.thread_pool_max=64 ..." tries ORB settings on both servers alike.
        final String options = System.getProperty("harness.server.options", "").strip();
        if (!options.isEmpty()) {
            command.addAll(List.of(options.split("\\s+")));
        }
        command.add(main);
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(work.resolve(log).toFile()).start();
    }

    private static String awaitIor(final Path file) throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (Files.exists(file)) {
                return Files.readString(file).trim();
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no IOR at " + file);
    }

    /** Finds a repository path from the working directory or its parent (run from the root or benchmarks/). */
    private static Path locate(final String relative) {
        final Path here = Path.of(relative);
        return Files.exists(here) ? here : Path.of("..").resolve(relative);
    }
}
