package org.latencyserver.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.mirror.EstimateMirror;
import org.latencyserver.mirror.MirrorRecord;
import org.latencyserver.mirror.ReadStatus;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.ORB;

/**
 * Freshness of the host-local mirror: how long after an estimate changes at the server a reader of
 * the mirror file sees it. The real server (thesis testbed) and a real {@code ./latency mirror}
 * run in their own JVMs on loopback; this JVM changes connection 1's load state with
 * {@code PutMibUpdates} (client and peer CPU 10 % ↔ 90 %: LOW/LOW ↔ HIGH/HIGH, a different profile
 * cell, so a different estimate) and reads the mirror record until it shows the new state (every
 * ~20 µs, parked between looks, so as not to take a core from what it times). The
 * time counts from just before the call is sent, so it includes the call itself (the change happens
 * inside it): an upper bound of "change at the server → visible to a reader"; the time from the
 * call's answer to the mirror showing it is printed beside it (the change lies between the two,
 * and the call is answered only once its change is in the server's journal). For comparison the
 * same change is also read back with {@code RequestStatus} (a call after the update returns).
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.MirrorFreshnessHarness [CHANGES] [PAUSE_MILLIS]}
 */
public final class MirrorFreshnessHarness {

    private static final short CONNECTION = 1;
    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long POLL_NANOS = 20_000;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private MirrorFreshnessHarness() {
    }

    /**
     * @param args changes to time (default 2000), pause between changes in ms (default 10)
     * @throws Exception when a process or call fails
     */
    public static void main(final String[] args) throws Exception {
        final int changes = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        final long pauseMillis = args.length > 1 ? Long.parseLong(args[1]) : 10;
        try (TemporaryDirectory scratch = TemporaryDirectory.create("mirror-freshness")) {
            final Path work = scratch.path();
            final Path config = RepositoryFiles.testbedConfig(work);
            try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
                // --ior-file only keeps its IOR file out of the working directory; the reference comes from the ready file.
                final String reference = kit.launch(Component.SERVER)
                    .args("--config", config.toString(), "--ior-file", work.resolve("server.ior").toString(), "--metrics-port", "0")
                    .start().awaitReady(READY_TIMEOUT).reference("server");
                final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
                final Latserv latserv = LatservHelper.narrow(orb.string_to_object(reference));
                push(latserv, 10);
                final Path mirrorFile = kit.launch(Component.MIRROR)
                    .args("--server", reference, "--file", work.resolve("estimates.mirror").toString(),
                        "--connections", Short.toString(CONNECTION))
                    .start().awaitReady(READY_TIMEOUT).file("mirror");
                final MirrorRecord record = new MirrorRecord();
                try (EstimateMirror reader = awaitEstimate(mirrorFile, record)) {
                    final Timings timings = new Timings();
                    for (int i = 0; i < changes + 100; i++) {
                        final int cpuPercent = i % 2 == 0 ? 90 : 10;
                        final int expectedCpuState = cpuPercent == 90 ? 33 : 11;
                        final long sentNanos = System.nanoTime();
                        push(latserv, cpuPercent);
                        final long answeredNanos = System.nanoTime();
                        final long seenNanos = awaitInMirror(reader, record, expectedCpuState, sentNanos);
                        final long statusStart = System.nanoTime();
                        final float servedMillis = latserv.RequestStatus(CONNECTION).latency_estimate;
                        final long statusNanos = System.nanoTime() - statusStart;
                        if (i < 100) {
                            continue;    // warm-up: JIT of all three JVMs
                        }
                        // The mirror must show what the server serves: the same value as RequestStatus.
                        if (seenNanos == 0 || servedMillis != (float) record.valueMillis()) {
                            timings.missed++;
                        } else {
                            timings.record(sentNanos, answeredNanos, seenNanos, statusNanos);
                        }
                        Thread.sleep(pauseMillis);
                    }
                    timings.print(changes, pauseMillis);
                } finally {
                    orb.shutdown(false);
                }
            }
        }
    }

    /** What the timed changes measured, ns; main thread only. */
    private static final class Timings {
        final Histogram mirrorNanos = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final Histogram callNanos = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final Histogram afterAnswerNanos = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final Histogram requestStatusNanos = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        /** Changes not seen in time, or seen with another value than RequestStatus serves. */
        int missed;

        void record(final long sentNanos, final long answeredNanos, final long seenNanos, final long statusNanos) {
            mirrorNanos.recordValue(seenNanos - sentNanos);
            callNanos.recordValue(answeredNanos - sentNanos);
            afterAnswerNanos.recordValue(seenNanos - answeredNanos);
            requestStatusNanos.recordValue(statusNanos);
        }

        void print(final int changes, final long pauseMillis) {
            System.out.printf(Locale.ROOT, "Mirror freshness, loopback: %d state changes of connection %d, %d ms apart; "
                + "%d not seen within 5 s%n", changes, CONNECTION, pauseMillis, missed);
            System.out.println("                                               p50 us    p99 us  p99.9 us    max us");
            row("change sent -> visible in the mirror file", mirrorNanos);
            row("  of which: PutMibUpdates call", callNanos);
            row("call answered -> visible in the mirror file", afterAnswerNanos);
            row("RequestStatus afterwards (one call)", requestStatusNanos);
        }
    }

    /**
     * @return {@link System#nanoTime()} when the mirror first showed the expected CPU state, or 0 when
     *         it did not within {@link #GIVE_UP_NANOS} of {@code sentNanos}
     */
    private static long awaitInMirror(final EstimateMirror reader, final MirrorRecord record, final int expectedCpuState,
                                      final long sentNanos) {
        while (System.nanoTime() - sentNanos < GIVE_UP_NANOS) {
            if (reader.read(CONNECTION, record) == ReadStatus.OK && record.cpuState() == expectedCpuState) {
                return System.nanoTime();
            }
            // Looks every ~20 us rather than spinning: a spinning reader would take one of the
            // machine's two cores from the server and the mirror it is timing.
            java.util.concurrent.locks.LockSupport.parkNanos(POLL_NANOS);
        }
        return 0;
    }

    private static void row(final String label, final Histogram histogram) {
        System.out.printf(Locale.ROOT, "%-44s %9.0f %9.0f %9.0f %9.0f%n", label, histogram.getValueAtPercentile(50) / 1e3,
            histogram.getValueAtPercentile(99) / 1e3, histogram.getValueAtPercentile(99.9) / 1e3, histogram.getMaxValue() / 1e3);
    }

    private static void push(final Latserv latserv, final int cpuPercent) {
        latserv.PutMibUpdates(new IdlMibUpdates(CONNECTION, (short) cpuPercent, (short) cpuPercent, (short) 20), (short) 1);
    }

    /** @return the mirror, open, once it holds the connection's first estimate (it may be written just after the ready file) */
    private static EstimateMirror awaitEstimate(final Path file, final MirrorRecord record) throws Exception {
        final long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        final EstimateMirror reader = EstimateMirror.open(file);
        while (reader.read(CONNECTION, record) != ReadStatus.OK) {
            if (System.nanoTime() > deadline) {
                reader.close();
                throw new IllegalStateException("no estimate of connection " + CONNECTION + " in " + file);
            }
            Thread.sleep(20);
        }
        return reader;
    }
}
