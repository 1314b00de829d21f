package org.latencyserver.client.mirror;

import java.nio.charset.StandardCharsets;

import java.io.PrintStream;

import java.io.ByteArrayOutputStream;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.TimeUnit;

import java.nio.file.StandardOpenOption;

import java.nio.channels.FileChannel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.StandInServer;
import org.latencyserver.idl.latency.ConfidenceInterval;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateKind;
import org.latencyserver.idl.latency.PathHop;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.mirror.EstimateMirror;
import org.latencyserver.mirror.MirrorRecord;
import org.latencyserver.mirror.ReadStatus;

/**
 * The mirror launched from a context in this JVM, as {@link MirrorMain} launches it, against a
 * stand-in server in this JVM that has one connection (index_ref 6) with a 42 ms bound.
 */
class MirrorTest {

    private static final short CONNECTION = 6;
    private static final long SUBSCRIPTION = 77;

    private static StandInServer server;
    private static final List<Long> unsubscribed = new CopyOnWriteArrayList<>();

    @TempDir
    Path directory;

    @BeforeAll
    static void startStandInServer() throws Exception {
        server = StandInServer.start(Map.of(
            "list_connections", args -> new ConnectionInfo[] {connection()},
            "current_estimate", args -> estimate(),
            "subscribe", args -> SUBSCRIPTION,
            "unsubscribe", args -> {
                unsubscribed.add((Long) args[0]);
                return null;
            }));
    }

    /** The stand-in server is shared: each test counts its own mirror's unsubscriptions only. */
    @BeforeEach
    void forgetEarlierTestsUnsubscriptions() {
        unsubscribed.clear();
    }

    @AfterAll
    static void stopStandInServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void itWritesTheServersEstimateIntoTheFileItReportsAndCloseEndsItsSubscription() throws Exception {
        final Path file = directory.resolve("estimates.mirror");
        final Mirror mirror = Mirror.launch(new MirrorContext().server(server.ior()).file(file).connections(Set.of(CONNECTION)));
        try {
            mirror.awaitFirstContact();
            final ReadyFile ready = mirror.readyFile().build();
            assertEquals("mirror", ready.component());
            assertEquals(file.toAbsolutePath(), ready.file("mirror"));
            assertEquals("1", ready.fact("connections"));

            try (EstimateMirror reader = EstimateMirror.open(ready.file("mirror"))) {
                assertEquals(ProcessHandle.current().pid(), reader.writerPid());
                final MirrorRecord record = awaitRecord(reader, CONNECTION);
                assertEquals(42.0, record.valueMillis());
                assertEquals(4, record.qos());
            }
        } finally {
            mirror.close();
        }
        mirror.close();
        assertEquals(List.of(SUBSCRIPTION), unsubscribed, "closed, the mirror ends its subscription once");
        assertTrue(Files.exists(file), "the file stays for readers, who see its heartbeat stop");
    }

    @Test
    void aConnectionTheServerLacksFailsTheFirstContactNamingIt() throws Exception {
        try (Mirror mirror = Mirror.launch(new MirrorContext().server(server.ior()).file(directory.resolve("m"))
            .connections(Set.of(CONNECTION, (short) 9)))) {
            final Mirror.UnknownConnections refused = assertThrows(Mirror.UnknownConnections.class, mirror::awaitFirstContact);
            assertTrue(refused.getMessage().contains("[9]"), refused.getMessage());
        }
    }

    @Test
    void badSettingsAreRefusedNamingTheOptionAndValue() {
        final IllegalArgumentException refresh = assertThrows(IllegalArgumentException.class,
            () -> new MirrorContext().server("x").file(directory.resolve("m")).pollMillis(500).refreshMillis(400).validate());
        assertTrue(refresh.getMessage().contains("--refresh-millis") && refresh.getMessage().contains("400"), refresh.getMessage());
        final IllegalArgumentException heartbeat = assertThrows(IllegalArgumentException.class,
            () -> new MirrorContext().server("x").file(directory.resolve("m")).heartbeatMillis(5).validate());
        assertTrue(heartbeat.getMessage().contains("--heartbeat-millis"), heartbeat.getMessage());
        final IllegalArgumentException noFile = assertThrows(IllegalArgumentException.class,
            () -> new MirrorContext().server("x").validate());
        assertTrue(noFile.getMessage().contains("--file"), noFile.getMessage());
    }

    /** Waits for the writer thread to have written the record (it writes from a queue). */
    private static MirrorRecord awaitRecord(final EstimateMirror reader, final int indexRef) throws InterruptedException {
        final MirrorRecord record = new MirrorRecord();
        final long deadline = System.nanoTime() + 60_000_000_000L;
        ReadStatus status = reader.read(indexRef, record);
        while (!(status == ReadStatus.OK && record.hasEstimate()) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            status = reader.read(indexRef, record);
        }
        assertEquals(ReadStatus.OK, status);
        assertTrue(record.hasEstimate(), "the mirror wrote the server's estimate of connection " + indexRef);
        return record;
    }

    private static ConnectionInfo connection() {
        return new ConnectionInfo(CONNECTION, "ws1", "ws2", (short) 1, (short) 1, 256, (short) 4, 96.0, "", (short) 11, (short) 0,
            false, "", "", "", 0.0, "thesis", new PathHop[0], "union", false,
            new org.latencyserver.idl.latency.TrafficShape(0, 0, 0, (short) 0));
    }

    private static Estimate estimate() {
        final long now = System.currentTimeMillis();
        return new Estimate(CONNECTION, (short) 4, EstimateKind.BOUND, 42.0, 96.0,
            new ConfidenceInterval(93.5, 97.9, 0.95, "percent", "Wilson score"), new ConfidenceInterval[0], false, false,
            "", false, "measurement ticket 7", new String[0], now, 42.0, "", "measurement", now, (short) 11, (short) 0, new PathHop[0], "", 0.0, 0.0,
            "any traffic");
    }

    @Test
    void aMirrorWhoseFileIsTruncatedUnderItsWriterReportsTheWritersDeathNamingTheFile() throws Exception {
        final Path file = directory.resolve("truncated.mirror");
        try (Mirror mirror = Mirror.launch(new MirrorContext().server(server.ior()).file(file).connections(Set.of(CONNECTION)))) {
            mirror.awaitFirstContact();
            assertFalse(mirror.writerDeath().isDone());
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(0);
            }
            final String why = mirror.writerDeath().get(10, TimeUnit.SECONDS);
            assertTrue(why.startsWith(file.toAbsolutePath().toString()) && why.contains("truncated"), why);
        }
    }

    @Test
    void theMirrorProcessSaysWhyItsWriterDiedRemovesItsReadyFileAndExitsOne() throws Exception {
        final Path readyFile = Files.writeString(directory.resolve("mirror.ready"), "component=mirror\n");
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final List<Integer> exits = new CopyOnWriteArrayList<>();
        MirrorMain.exitAfterWriterDeath("/dev/shm/m: the mirror file was truncated under its writer", readyFile,
            new PrintStream(err, true, StandardCharsets.UTF_8), exits::add);
        assertEquals(List.of(1), exits);
        assertFalse(Files.exists(readyFile), "the ready file is removed: the mirror no longer serves");
        assertEquals("latency mirror: /dev/shm/m: the mirror file was truncated under its writer",
            err.toString(StandardCharsets.UTF_8).strip());
    }
}
