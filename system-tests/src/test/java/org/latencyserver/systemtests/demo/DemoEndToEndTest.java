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
 * {@code ./latency demo --duration …} as a user runs it, from the repository's launcher (the build
 * is the one Maven has just made, so the launcher is told not to rebuild): every QoS level serves an
 * estimate, a scenario state change reaches the console, and when the time is up the demo exits 0
 * leaving no process running and no port bound.
 */
@Order(2) // a long class, started early (junit-platform.properties): the demo runs 110 s whatever the machine does
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
     * The demo's life from its ready file. The checks took 29 s of it on a quiet machine and over 70 s on one at load 20–30
     * (the estimates alone may be awaited 90 s), after which the demo had correctly stopped and the checks met no server:
     * 110 s leaves a busy machine room and costs a quiet one 40 s, run beside other classes.
     */
    private static final long DURATION_SECONDS = 110;
    private static final int[] EMULATOR_UDP_PORTS = {16301, 16302, 16303, 16304, 16310};

    @TempDir
    Path work;

    @Test
    void theDemoServesAllFourQosLevelsPushesAStateChangeToTheConsoleAndLeavesNothingRunning() throws Exception {
        final Path output = work.resolve("demo.log");
        final Path readyFile = work.resolve("demo.ready.json");
        final SystemUnderTest system = SystemUnderTest.in(work);
        // The launcher itself, as the README's first command runs it (not the demo's main class).
        // The duration counts from the demo's ready file (see DURATION_SECONDS).
        final ChildProcess demo = system.launchProgram("demo", List.of(ROOT.resolve("latency").toString(), "demo"))
            .args("--duration", Long.toString(DURATION_SECONDS), "--work-dir", work.resolve("run").toString(), "--console-port", "0",
                "--ready-file", readyFile.toString())
            .env("LATENCY_NO_BUILD", "1").start();
        final List<ProcessHandle> children = new ArrayList<>();
        ORB orb = null;
        DemoReady ready = null;
        int exit;
        try {
            // Ready when its ready file appears; its output is only quoted when it fails.
            ready = DemoReady.of(ReadyFile.await(readyFile, Duration.ofSeconds(180), demo::isAlive, demo::logEnd));
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
            if (orb != null) {
                orb.shutdown(false);
            }
            try {
                exit = demo.awaitExit(Duration.ofSeconds(200));
            } finally {
                system.close(); // if it did not stop by itself, nothing of it is left behind for the next test
            }
        }
        assertEquals(0, exit, Files.readString(output));
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
        for (final int port : EMULATOR_UDP_PORTS) {
            try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
                assertTrue(socket.isBound());
            }
        }
        assertTrue(!Files.exists(readyFile), "the demo deletes its ready file when it stops");
        for (final int port : new int[] {ready.consolePort(), ready.namingPort()}) {
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertTrue(socket.isBound(), "port " + port + " is free again");
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
