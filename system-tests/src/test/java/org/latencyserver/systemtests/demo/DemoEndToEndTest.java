package org.latencyserver.systemtests.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.demo.DemoReady;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.mirror.EstimateMirror;
import org.latencyserver.mirror.MirrorRecord;
import org.latencyserver.mirror.ReadStatus;
import org.latencyserver.orb.References;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.omg.CORBA.ORB;

/**
 * {@code ./latency demo} as a user runs it, from the repository's launcher (the build is the one
 * Maven has just made, so the launcher is told not to rebuild): every QoS level serves an estimate,
 * a scenario state change reaches the console, and stopped as Ctrl-C or {@code kill} stops it
 * (SIGTERM) the demo exits 143 leaving no process running and no port bound; run again with a
 * short {@code --duration}, it stops by itself when the time is up and exits 0, again leaving
 * nothing running.
 */
@Order(2) // a long class, started early (junit-platform.properties): the demo runs as long as the checks take
class DemoEndToEndTest {

    /** @return the connection's CPU state as everyone may read it (list_connections) */
    private static short cpuStateOf(final LatencyService service, final int indexRef) {
        for (final org.latencyserver.idl.latency.ConnectionInfo info : service.list_connections()) {
            if (info.index_ref == indexRef) {
                return info.cpu_state;
            }
        }
        throw new AssertionError("no connection " + indexRef);
    }

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /**
     * A cap on the first run's life from its ready file, not its length: the test stops the demo once
     * its checks are done (29 s on a quiet machine, over 70 s at load 20–30); the cap only ends a demo
     * whose test died without stopping it.
     */
    private static final long CAP_SECONDS = 600;
    /** The second run's {@code --duration}: it ends by itself, as soon after its ready file as that. */
    private static final long DURATION_SECONDS = 1;
    /** How a JVM stopped by SIGTERM exits (128 + 15), as the demo documents. */
    private static final int SIGTERM_EXIT = 143;
    private static final int[] EMULATOR_UDP_PORTS = {16301, 16302, 16303, 16304, 16310};

    @TempDir
    Path work;

    @Test
    void theDemoServesAllFourQosLevelsPushesAStateChangeToTheConsoleAndStoppedOrAtTheEndOfItsDurationLeavesNothingRunning() throws Exception {
        final Path output = work.resolve("demo.log");
        final Path readyFile = work.resolve("demo.ready.json");
        final long startNanos = System.nanoTime();
        long readyNanos = startNanos;
        long checkedNanos = startNanos;
        final SystemUnderTest system = SystemUnderTest.in(work);
        // The launcher itself, as the README's first command runs it (not the demo's main class).
        // The cap counts from the demo's ready file (see CAP_SECONDS).
        final ChildProcess demo = system.launchProgram("demo", List.of(ROOT.resolve("latency").toString(), "demo"))
            .args("--duration", Long.toString(CAP_SECONDS), "--work-dir", work.resolve("run").toString(), "--console-port", "0",
                "--ready-file", readyFile.toString())
            .env("LATENCY_NO_BUILD", "1").start();
        final List<ProcessHandle> children = new ArrayList<>();
        ORB orb = null;
        DemoReady ready = null;
        int exit;
        try {
            // Ready when its ready file appears; its output is only quoted when it fails.
            ready = DemoReady.of(ReadyFile.await(readyFile, Duration.ofSeconds(180), demo::isAlive, demo::logEnd));
            readyNanos = System.nanoTime();
            final String consoleUrl = ready.consoleUrl();
            final String naming = ready.naming();
            // What it prints to people says the same (its user interface, not something a program reads).
            assertTrue(read(output).contains(consoleUrl), "the banner names the console:\n" + read(output));
            children.addAll(ProcessHandle.of(demo.pid()).orElseThrow().descendants().toList());
            assertTrue(children.size() >= 7, "naming, emulator, server, agents, console, mirror (and load drivers): " + children.size());
            for (final long pid : ready.pids().values()) {
                assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " of " + ready.pids());
            }

            orb = ORB.init(new String[0], orbProperties());
            final LatencyService service = LatencyServiceHelper.narrow(References.resolve(orb, ready.serverName(), naming));
            final Map<Integer, Estimate> estimates = awaitEstimates(service, 90);
            assertEquals(1, estimates.get(1).quality);
            assertEquals(2, estimates.get(2).quality);
            assertEquals(3, estimates.get(3).quality);
            assertEquals(4, estimates.get(4).quality);
            assertTrue(estimates.get(3).basis.contains("measurement ticket"), estimates.get(3).basis);
            assertTrue(estimates.get(4).basis.contains("measurement ticket"), estimates.get(4).basis);

            // The demo takes writes only over TLS: the thesis's operator table is refused to a plain caller.
            assertThrows(org.omg.CORBA.NO_PERMISSION.class, () -> service.RequestTableStatus((short) 1));

            // A state change of the scenario (every 12 s) reaches the console's data.
            final String first = snapshot(consoleUrl);
            final short cpuStateBefore = cpuStateOf(service, 1);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            String later = first;
            while (System.nanoTime() < deadline && cpuStateOf(service, 1) == cpuStateBefore) {
                Thread.sleep(500);
            }
            assertTrue(cpuStateOf(service, 1) != cpuStateBefore, "the scenario changed connection 1's CPU state");
            // The console follows the server's current state (which may move on again meanwhile:
            // a step that changes both CPUs passes through a mixed state for a poll or two).
            final long consoleDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            short current = cpuStateOf(service, 1);
            while (System.nanoTime() < consoleDeadline && !(current != cpuStateBefore
                && ConsoleSnapshot.cpuStateOf(later, 1).equals(Integer.toString(current)))) {
                Thread.sleep(250);
                later = snapshot(consoleUrl);
                current = cpuStateOf(service, 1);
            }
            assertEquals(Integer.toString(current), ConsoleSnapshot.cpuStateOf(later, 1),
                "the console shows the server's new state; before: " + ConsoleSnapshot.cpuStateOf(first, 1));
            assertTrue(current != cpuStateBefore, "a state other than the one before");

            // The demo's mirror shows the same state, read from its file without a call, as an application reads it.
            try (EstimateMirror mirror = EstimateMirror.open(ready.mirrorFile())) {
                final MirrorRecord record = new MirrorRecord();
                final long mirrorDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
                ReadStatus status = mirror.read(1, record);
                while (System.nanoTime() < mirrorDeadline && !(status == ReadStatus.OK && record.cpuState() == cpuStateOf(service, 1))) {
                    Thread.sleep(100);
                    status = mirror.read(1, record);
                }
                assertEquals(ReadStatus.OK, status, "the mirror is alive and has connection 1");
                assertEquals(cpuStateOf(service, 1), record.cpuState(), "the mirror follows the server's state: " + record);
                assertTrue(record.hasEstimate() && record.qos() == 1, record.toString());
            }
        } finally {
            checkedNanos = System.nanoTime();
            if (orb != null) {
                orb.shutdown(false);
            }
            // Checks done (or failed): stopped as Ctrl-C or kill stops it, SIGTERM to the demo alone;
            // stopping what it started is its own job, checked below.
            ProcessHandle.of(demo.pid()).ifPresent(ProcessHandle::destroy);
            try {
                exit = demo.awaitExit(Duration.ofSeconds(200));
            } finally {
                system.close(); // if it did not stop by itself, nothing of it is left behind for the next test
            }
        }
        assertEquals(SIGTERM_EXIT, exit, Files.readString(output));
        assertTrue(Files.readString(output).contains("nothing left running"), Files.readString(output));
        for (final ProcessHandle child : children) {
            // A child the demo stopped may still be being reaped as the demo exits: give it 10 s to be gone.
            try {
                child.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException stillRunning) {
                // judged below
            }
            assertTrue(!child.isAlive(), "still running after the demo: " + child.info().commandLine().orElse("pid " + child.pid()));
        }
        assertNothingBound(ready);
        assertTrue(!Files.exists(readyFile), "the demo deletes its ready file when it stops");
        final long stoppedNanos = System.nanoTime();

        endsByItselfAfterItsDuration();
        // Figures for the reader, not assertions (two shared cores).
        System.out.printf(Locale.ROOT, "demo: ready in %.1f s, checks %.1f s, stopped in %.1f s; the --duration %d run %.1f s%n",
            (readyNanos - startNanos) / 1e9, (checkedNanos - readyNanos) / 1e9, (stoppedNanos - checkedNanos) / 1e9, DURATION_SECONDS,
            (System.nanoTime() - stoppedNanos) / 1e9);
    }

    /**
     * The demo run again in the same work directory (its certificates kept) with a short
     * {@code --duration}: it stops by itself, says so, exits 0, deletes its ready file and leaves
     * nothing running (its kit's check, which the first run has checked from outside) and the
     * emulator's ports free. Its ready file lives {@link #DURATION_SECONDS} s, too short to be
     * awaited on a busy machine: the run is judged by its end.
     */
    private void endsByItselfAfterItsDuration() throws Exception {
        final SystemUnderTest system = SystemUnderTest.in(work);
        final Path readyFile = work.resolve("demo-duration.ready.json");
        final ChildProcess demo = system.launchProgram("demo-duration", List.of(ROOT.resolve("latency").toString(), "demo"))
            .args("--duration", Long.toString(DURATION_SECONDS), "--work-dir", work.resolve("run").toString(), "--console-port", "0",
                "--ready-file", readyFile.toString())
            .env("LATENCY_NO_BUILD", "1").start();
        final int exit;
        try {
            exit = demo.awaitExit(Duration.ofSeconds(300));
        } finally {
            system.close(); // if it did not stop by itself, nothing of it is left behind for the next test
        }
        final String output = demo.log();
        assertEquals(0, exit, output);
        assertTrue(output.contains("--duration " + DURATION_SECONDS + " s reached; stopping"), output);
        assertTrue(output.contains("nothing left running"), output);
        assertTrue(!Files.exists(readyFile), "the demo deletes its ready file when it stops");
        assertEmulatorPortsFree();
    }

    /** The emulator's UDP ports and the demo's console and naming service ports are free again. */
    private static void assertNothingBound(final DemoReady ready) throws IOException {
        assertEmulatorPortsFree();
        for (final int port : new int[] {ready.consolePort(), ready.namingPort()}) {
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertTrue(socket.isBound(), "port " + port + " is free again");
            }
        }
    }

    private static void assertEmulatorPortsFree() throws IOException {
        for (final int port : EMULATOR_UDP_PORTS) {
            try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
                assertTrue(socket.isBound());
            }
        }
    }
    private static Map<Integer, Estimate> awaitEstimates(final LatencyService service, final int seconds) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        final Map<Integer, Estimate> estimates = new HashMap<>();
        final Map<Integer, String> reasons = new HashMap<>();
        while (System.nanoTime() < deadline && estimates.size() < 4) {
            for (short indexRef = 1; indexRef <= 4; indexRef++) {
                try {
                    final Estimate estimate = service.current_estimate(indexRef);
                    // QoS 3/4 serve their profile (labelled "profile fallback") until a state is measured: wait for a measurement.
                    if (indexRef <= 2 || "measurement".equals(estimate.source)) {
                        estimates.put((int) indexRef, estimate);
                    } else {
                        reasons.put((int) indexRef, "serving its " + estimate.source + " so far");
                    }
                } catch (EstimateUnavailable e) {
                    reasons.put((int) indexRef, e.reason);
                }
            }
            Thread.sleep(500);
        }
        assertEquals(4, estimates.size(), "estimates for every QoS level; missing: " + reasons);
        return estimates;
    }

    private static String snapshot(final String consoleUrl) throws IOException, InterruptedException {
        final HttpResponse<String> response = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create(consoleUrl).resolve("/api/snapshot")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    private static String read(final Path output) {
        try {
            return Files.exists(output) ? Files.readString(output) : "";
        } catch (IOException e) {
            return "(cannot read " + output + ": " + e.getMessage() + ")";
        }
    }

    private static Properties orbProperties() {
        final Properties properties = new Properties();
        properties.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        properties.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        properties.setProperty("jacorb.log.default.verbosity", "1");
        return properties;
    }
}
