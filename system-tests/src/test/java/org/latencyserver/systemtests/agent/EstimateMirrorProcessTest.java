package org.latencyserver.systemtests.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.mirror.EstimateMirror;
import org.latencyserver.mirror.MirrorLayout;
import org.latencyserver.mirror.MirrorRecord;
import org.latencyserver.mirror.ReadStatus;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./latency mirror} against a real server: the mirror file follows the server's estimates
 * as they change, says so when it loses the server and recovers when it returns, and a reader can
 * tell a dead mirror from a live one. Everything is read through the file, as an application does.
 */
class EstimateMirrorProcessTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Beside the testbed's measured connections 4 and 6 (no estimate until measured), one served from a profile. */
    private static final Connection PROFILED = Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba");
    private static final UnaryOperator<Connection> KEYS = c -> c.calibration("adaptive").probeRatePerSecond(0);

    @TempDir
    Path directory;

    @Test
    void mirrorFollowsPushedStateChangesMarksALostServerStaleAndRecoversWhenItReturns() throws Exception {
        final Path file = directory.resolve("estimates.mirror");
        AgentTestbed testbed = AgentTestbed.start(directory, 1000, 30_000, KEYS, PROFILED);
        // The mirror outlives the testbed's server (stopped and started again below): a kit of its own.
        // A long refresh period: after the first read, what the file shows can only come from pushes.
        try (SystemUnderTest mirrors = SystemUnderTest.in(directory)) {
            final ChildProcess mirror = mirrors.launch(Component.MIRROR).args("--server", testbed.serverIor.toString(),
                "--file", file.toString(), "--connections", "1,6", "--heartbeat-millis", "50", "--poll-millis", "200",
                "--refresh-millis", "600000").start();
            push(testbed, 10);
            final org.latencyserver.launch.ReadyFile ready = mirror.awaitReady(WAIT);
            assertEquals("2", ready.fact("connections"), "connections 1 and 6, as asked");
            try (EstimateMirror reader = EstimateMirror.open(ready.file("mirror"))) {
                final MirrorRecord record = new MirrorRecord();
                awaitRecord(reader, 1, record, r -> r.hasEstimate() && r.cpuState() == 11, mirror);
                assertEquals(MirrorLayout.SERVER_LINK_PUSH, reader.serverLink());
                // Connection 6 is measured and never was: the record says there is no estimate, with the state.
                awaitRecord(reader, 6, record, r -> r.cpuState() == 11, mirror);
                assertFalse(record.hasEstimate(), record.toString());
                assertEquals(MirrorLayout.STALE_REASON_NO_ESTIMATE, record.staleReason());
                assertEquals(4, record.qos());
                assertEquals(ReadStatus.NOT_MIRRORED, reader.read(4, record), "connection 4 was not asked for");

                push(testbed, 90);
                awaitRecord(reader, 1, record, r -> r.hasEstimate() && r.cpuState() == 33, mirror);
                assertEquals(testbed.service.current_estimate((short) 1).value_ms, record.valueMillis(),
                    "the mirror shows the value the server serves");
                assertEquals(1, record.qos());
                assertEquals(MirrorLayout.KIND_AVERAGE, record.kind());
                awaitRecord(reader, 6, record, r -> r.cpuState() == 33, mirror);

                final Path state = directory.resolve("state.json");
                testbed.close();
                awaitRecord(reader, 1, record, r -> r.stale() && r.staleReason() == MirrorLayout.STALE_REASON_SERVER_LOST, mirror);
                assertEquals(33, record.cpuState(), "a lost server leaves the last served values in place");
                assertTrue(record.hasEstimate());
                assertEquals(MirrorLayout.SERVER_LINK_LOST, reader.serverLink());
                assertEquals(ReadStatus.OK, reader.read(1, record), "the mirror itself is alive while its server is lost");

                assertTrue(Files.exists(state), "the testbed's state file stays for the restart");
                // The first server's log is kept for whoever reads a failure (the kit starts each log afresh).
                Files.move(directory.resolve("server.log"), directory.resolve("server-before-restart.log"));
                testbed = AgentTestbed.start(directory, 1000, 30_000, KEYS, PROFILED);
                awaitRecord(reader, 1, record, r -> !r.stale(), mirror);
                final long deadline = System.nanoTime() + WAIT.toNanos();
                while (reader.serverLink() != MirrorLayout.SERVER_LINK_PUSH && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertEquals(MirrorLayout.SERVER_LINK_PUSH, reader.serverLink(), "subscribed again to the restarted server");
                push(testbed, 50);
                awaitRecord(reader, 1, record, r -> r.cpuState() == 22, mirror);
            }
        } finally {
            testbed.close();
        }
    }

    @Test
    void aKilledMirrorReadsDeadWithItsLastValues() throws Exception {
        final Path file = directory.resolve("estimates.mirror");
        try (AgentTestbed testbed = AgentTestbed.start(directory, 1000, 30_000, KEYS, PROFILED)) {
            final ChildProcess mirror = testbed.system.launch(Component.MIRROR).args("--server", testbed.serverIor.toString(),
                "--file", file.toString(), "--heartbeat-millis", "50").start();
            push(testbed, 10);
            try (EstimateMirror reader = EstimateMirror.open(mirror.awaitReady(WAIT).file("mirror"))) {
                final MirrorRecord record = new MirrorRecord();
                awaitRecord(reader, 1, record, r -> r.hasEstimate() && r.cpuState() == 11, mirror);
                assertTrue(reader.alive(System.currentTimeMillis()));
                final double value = record.valueMillis();

                mirror.kill();
                final long deadline = System.nanoTime() + WAIT.toNanos();
                ReadStatus status = reader.read(1, record);
                while (status != ReadStatus.MIRROR_DEAD && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                    status = reader.read(1, record);
                }
                assertEquals(ReadStatus.MIRROR_DEAD, status, "a mirror whose heartbeat stopped is reported dead");
                assertEquals(value, record.valueMillis(), "its last values are still copied for the caller to judge");
                assertTrue(reader.heartbeatAgeMillis(System.currentTimeMillis()) >= 150);
            }
        }
    }

    @Test
    void aConnectionTheServerDoesNotHaveIsRefusedAtStart() throws Exception {
        final Path file = directory.resolve("estimates.mirror");
        try (AgentTestbed testbed = AgentTestbed.start(directory, 1000, 30_000)) {
            final ChildProcess mirror = testbed.system.launch(Component.MIRROR).args("--server", testbed.serverIor.toString(),
                "--file", file.toString(), "--connections", "4,99").start();
            assertEquals(2, mirror.awaitExit(WAIT));
            assertFalse(Files.exists(mirror.readyFile()), "a mirror that refused to start never said it was ready");
            assertTrue(mirror.log().contains("the server has no connection [99]"), mirror.log());
            assertFalse(mirror.log().contains("Exception"), mirror.log());
        }
    }

    /** CPU at the given percent on both nodes, for every connection (the testbed's push covers 4 and 6 only). */
    private static void push(final AgentTestbed testbed, final int cpuPercent) {
        testbed.push(cpuPercent, cpuPercent, 20);
        testbed.latserv.PutMibUpdates(new IdlMibUpdates((short) 1, (short) cpuPercent, (short) cpuPercent, (short) 20), (short) 1);
    }

    private static void awaitRecord(final EstimateMirror reader, final int indexRef, final MirrorRecord into,
                                    final Predicate<MirrorRecord> condition, final ChildProcess mirror) throws Exception {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (reader.read(indexRef, into) == ReadStatus.OK && condition.test(into)) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("record " + indexRef + " never reached the expected state; last: " + into + "\n" + mirror.logEnd());
    }
}
