package org.latencyserver.server.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.jacorb.orb.ParsedIOR;
import org.jacorb.orb.iiop.IIOPAddress;
import org.jacorb.orb.iiop.IIOPProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.server.launch.LatencyServerNode;
import org.latencyserver.server.launch.ServerContext;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.omg.CORBA.ORB;

/**
 * Random and mutated GIOP messages over raw sockets at a server launched in the test's JVM: random
 * bytes, valid headers with garbage bodies, truncated requests left open, headers declaring more than
 * the limit, and a hand-built GIOP 1.2 {@code RequestStatus} request with bytes flipped. Afterwards the
 * server must still answer a real call, have closed every connection the fuzzer left open (its idle
 * time-out here is {@value #IDLE_TIMEOUT_MILLIS} ms), hold no more heap than
 * {@value #HEAP_BOUND_MIB} MiB over its baseline and no more threads than a few over it.
 *
 * <p>The seed is printed; {@code -Dgiop.fuzz.seed=N} replays a run, {@code -Dgiop.fuzz.messages=N} changes the count.
 */
@Isolated // runs alone (junit-platform.properties): reads the JVM-wide IIOP connection counts, which every server in the JVM moves
class GiopFuzzTest {

    private static final long IDLE_TIMEOUT_MILLIS = 1_000;
    private static final long HEAP_BOUND_MIB = 32;
    private static final int THREAD_BOUND = 10;
    private static final long FUZZ_SECONDS_AT_MOST = 60;
    private static final int HELD_AT_MOST = 100;
    private static final long SHUTDOWN_WAIT_MILLIS = 30_000;
    private static final int REQUEST = 0;
    private static final int REPLY = 1;
    private static final int CLOSE_CONNECTION = 5;

    @TempDir
    Path directory;
    private LatencyServerNode server;
    private ORB client;
    private Latserv latserv;
    private String host;
    private int port;
    private byte[] objectKey;
    /**
     * The request threads of other ORBs of this JVM when the test started (an earlier test class's, ending or
     * leaked), left out of the counts: they may end while this test runs.
     */
    private final Set<Thread> othersRequestThreads = new HashSet<>();

    @BeforeEach
    void launchAServerWithAShortIdleTimeout() throws Exception {
        othersRequestThreads.addAll(allRequestThreads());
        final Path config = TestbedConfigLines.pushedWs1Ws2OnAtmPort(ServerYaml.named("FuzzedServer")
                .stateFile(Path.of("fuzz.state.json"))
                .limits("idle_connection_timeout_millis", IDLE_TIMEOUT_MILLIS)
                .profile(TestbedConfigLines.profiles().resolve("thesis-tac4-corba.json")), "ws1")
            .connection(Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0))
            .writeTo(directory.resolve("fuzz.yaml"));
        server = LatencyServerNode.launch(new ServerContext().configFile(config).metricsPort(ServerContext.METRICS_OFF));
        client = PlainOrbs.init();
        latserv = LatservHelper.narrow(client.string_to_object(server.serverIor()));
        latserv.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 80, (short) 50), (short) 1);
        final ParsedIOR ior = new ParsedIOR((org.jacorb.orb.ORB) client, server.serverIor());
        objectKey = ior.get_object_key();
        final IIOPAddress address = (IIOPAddress) ((IIOPProfile) ior.getEffectiveProfile()).getAddress();
        host = address.getIP();
        port = address.getPort();
    }

    @AfterEach
    void closeTheServer() throws InterruptedException {
        client.shutdown(true);
        // JacORB's shutdown waits for every request thread to return to its pool: a lost one makes it wait for ever.
        final Thread closing = new Thread(server::close, "close-fuzzed-server");
        closing.setDaemon(true);
        closing.start();
        closing.join(SHUTDOWN_WAIT_MILLIS);
        assertFalse(closing.isAlive(), "the server's shutdown has not finished in " + SHUTDOWN_WAIT_MILLIS + " ms; request"
            + " threads left: " + requestThreads());
    }

    /** @return the request threads of this test's server (and client): those that were not there before it started */
    private long requestThreads() {
        return allRequestThreads().stream().filter(t -> !othersRequestThreads.contains(t)).count();
    }

    /** @return every JacORB request thread in the JVM, of any ORB */
    private static Set<Thread> allRequestThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("RequestProcessor-"))
            .collect(Collectors.toSet());
    }

    @Test
    void theHandBuiltRequestStatusRequestIsAnsweredWithAReply() throws IOException {
        try (Socket socket = new Socket(host, port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(requestStatus(7, (short) 1));
            final byte[] header = socket.getInputStream().readNBytes(12);
            assertEquals("GIOP", new String(header, 0, 4, StandardCharsets.US_ASCII));
            assertEquals(REPLY, header[7], "a Reply, so the fuzzer's mutations start from a request the server serves");
        }
    }

    @Test
    void anIdleConnectionIsClosedByTheServerAndAJacOrbCallerCallsAgainWithoutAFault() throws Exception {
        latserv.RequestStatus((short) 1);
        try (Socket idle = new Socket(host, port)) {
            idle.setSoTimeout((int) (10 * IDLE_TIMEOUT_MILLIS));
            final byte[] said = idle.getInputStream().readAllBytes();
            assertEquals(12, said.length, "one GIOP message, then the end of the stream: " + Arrays.toString(said));
            assertEquals(CLOSE_CONNECTION, said[7], "the server closes a connection idle for its time-out with CloseConnection");
        }
        // The caller's own connection has been idle as long, and closed as well; its next call opens another.
        assertEquals(1, latserv.RequestStatus((short) 1).server_acknowledges_client);
    }

    @Test
    void aRequestWithResponseFlagsJacOrbCannotTakeClosesItsConnectionAndTheRequestPoolKeepsItsThreads() throws Exception {
        final long threadsBefore = requestThreads();
        final long refusedBefore = IiopConnections.badResponseFlagsCount();
        for (int i = 0; i < 3; i++) {
            final byte[] request = requestStatus(i, (short) 1);
            request[12 + 4] = (byte) (0x20 + i);
            try (Socket socket = new Socket(host, port)) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(request);
                assertEquals(-1, socket.getInputStream().read(), "no reply: the connection is closed");
            }
        }
        assertEquals(refusedBefore + 3, IiopConnections.badResponseFlagsCount());
        assertEquals(1, latserv.RequestStatus((short) 1).server_acknowledges_client);
        assertEquals(threadsBefore, requestThreads(), "JacORB would have lost a request thread for each");
    }

    @Test
    void giop10And11RequestStatusRequestsWithAServiceContextAreAnsweredWithAReply() throws IOException {
        for (int minor = 0; minor <= 1; minor++) {
            try (Socket socket = new Socket(host, port)) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(requestStatusBefore12(minor, 7, (byte) 1, (short) 1));
                final byte[] header = socket.getInputStream().readNBytes(12);
                assertEquals("GIOP", new String(header, 0, 4, StandardCharsets.US_ASCII));
                assertEquals(minor, header[5], "answered in the request's GIOP version");
                assertEquals(REPLY, header[7], "GIOP 1." + minor + ": a Reply, so the bad variants below differ in their flag only");
            }
        }
    }

    @Test
    void giop10And11RequestsWhoseResponseExpectedIsNoBooleanCloseTheirConnectionAndTheServerKeepsServing() throws Exception {
        final long threadsBefore = requestThreads();
        final long refusedBefore = IiopConnections.badResponseFlagsCount();
        final byte[] notBooleans = {2, 3, 0x22, (byte) 0xff};
        for (int minor = 0; minor <= 1; minor++) {
            for (final byte responseExpected : notBooleans) {
                try (Socket socket = new Socket(host, port)) {
                    socket.setSoTimeout(10_000);
                    socket.getOutputStream().write(requestStatusBefore12(minor, 9, responseExpected, (short) 1));
                    assertEquals(-1, socket.getInputStream().read(), "GIOP 1." + minor + " with response_expected "
                        + responseExpected + ": no reply, the connection is closed");
                }
            }
        }
        assertEquals(refusedBefore + 2L * notBooleans.length, IiopConnections.badResponseFlagsCount(),
            "each refused before JacORB read it");
        assertEquals(1, latserv.RequestStatus((short) 1).server_acknowledges_client);
        assertEquals(threadsBefore, requestThreads(), "no request thread of the server's pool was lost");
    }

    @Test
    void giop10And11HeadersWithGarbageBodiesLeaveTheServerServing() throws Exception {
        final Random random = new Random(Long.getLong("giop.fuzz.seed", 20_261_127L));
        final long threadsBefore = requestThreads();
        for (int i = 0; i < 200; i++) {
            final int minor = random.nextInt(2);
            final byte[] message = random.nextBoolean() ? flipped(random, requestStatusBefore12(minor, i, (byte) 1, (short) 1))
                : withHeader(randomBytes(random, random.nextInt(512)), random.nextBoolean());
            message[5] = (byte) minor;
            message[7] = REQUEST;
            final Socket socket = new Socket(host, port);
            try {
                socket.getOutputStream().write(message);
            } catch (IOException e) {
                // The server may close a connection before it has read all of a bad message.
            }
            drainUntilClosed(socket);
        }
        assertEquals(1, latserv.RequestStatus((short) 1).server_acknowledges_client, "the server still serves");
        assertEquals(threadsBefore, requestThreads(), "no request thread of the server's pool was lost");
    }

    @Test
    void randomAndMutatedGiopMessagesLeaveTheServerServingWithNothingHeld() throws Exception {
        final long seed = Long.getLong("giop.fuzz.seed", 20_261_127L);
        final int messages = Integer.getInteger("giop.fuzz.messages", 2000);
        System.out.println("fuzzer: seed " + seed + " (-Dgiop.fuzz.seed=" + seed + " replays it)");
        final Random random = new Random(seed);
        final long maxMessageBytes = ConnectionLimits.largestLegitimateCallBytes(20_000, 64L << 20);
        latserv.RequestStatus((short) 1);
        final long heapBefore = usedHeapAfterGc();
        final int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
        final long openBefore = IiopConnections.openCount();
        final long oversizedBefore = IiopConnections.oversizedCount();
        final long requestThreadsBefore = requestThreads();

        final long started = System.nanoTime();
        final List<Socket> held = new ArrayList<>();
        int sent = 0;
        int oversizedSent = 0;
        int crashes = 0;
        final List<String> crashNotes = new ArrayList<>();
        while (sent < messages && System.nanoTime() - started < FUZZ_SECONDS_AT_MOST * 1_000_000_000L) {
            final int kind = random.nextInt(6);
            final byte[] message = switch (kind) {
                case 0 -> randomBytes(random, 1 + random.nextInt(512));
                case 1 -> withHeader(randomBytes(random, random.nextInt(2048)), random.nextBoolean());
                case 2 -> Arrays.copyOf(requestStatus(sent, (short) 1), 1 + random.nextInt(requestStatus(sent, (short) 1).length - 1));
                case 3 -> declaring(maxMessageBytes + 1 + (long) (random.nextDouble() * ((1L << 32) - 13 - maxMessageBytes)),
                    random.nextBoolean());
                case 4 -> flipped(random, requestStatus(sent, (short) 1));
                default -> withSize(requestStatus(sent, (short) 1), random.nextInt(4096));
            };
            final boolean keepOpen = kind == 2 && held.size() < HELD_AT_MOST;
            oversizedSent += kind == 3 ? 1 : 0;
            final Socket socket = new Socket(host, port);
            try {
                socket.getOutputStream().write(message);
            } catch (IOException e) {
                // The server may close a connection before it has read all of a bad message.
            }
            if (keepOpen) {
                held.add(socket);
            } else {
                drainUntilClosed(socket);
            }
            sent++;
            if (sent % 100 == 0) {
                try {
                    latserv.RequestStatus((short) 1);
                } catch (RuntimeException e) {
                    crashes++;
                    crashNotes.add("after message " + sent + ": " + e);
                }
            }
        }
        final double seconds = (System.nanoTime() - started) / 1e9;

        assertTrue(awaitOpenAtMost(openBefore, 10 * IDLE_TIMEOUT_MILLIS), "the server closed the " + held.size()
            + " truncated requests left open within 10 idle time-outs; open now " + IiopConnections.openCount() + ", before "
            + openBefore);
        for (final Socket socket : held) {
            drainUntilClosed(socket);
        }
        assertEquals(1, latserv.RequestStatus((short) 1).server_acknowledges_client, "the server still serves");
        final long heapAfter = usedHeapAfterGc();
        final int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
        System.out.printf(Locale.ROOT, "fuzzer: %d messages (%d over the limit, %d left open), %d crashes, heap before %.1f MiB"
                + " after %.1f MiB, threads before %d after %d, %.1f s%n", sent, oversizedSent, held.size(), crashes,
            heapBefore / 1048576.0, heapAfter / 1048576.0, threadsBefore, threadsAfter, seconds);
        assertEquals(List.of(), crashNotes, "every check call between the messages was answered");
        assertTrue(IiopConnections.oversizedCount() - oversizedBefore >= oversizedSent,
            "each header declaring more than the limit was refused unread (mutated sizes may add more)");
        assertEquals(requestThreadsBefore, requestThreads(), "no request thread of the server's pool was lost");
        assertTrue(heapAfter - heapBefore <= HEAP_BOUND_MIB << 20, "heap grew by " + (heapAfter - heapBefore) + " bytes");
        assertTrue(threadsAfter <= threadsBefore + THREAD_BOUND, "threads " + threadsBefore + " → " + threadsAfter);
    }

    private static boolean awaitOpenAtMost(final long open, final long withinMillis) throws InterruptedException {
        final long end = System.nanoTime() + withinMillis * 1_000_000L;
        while (IiopConnections.openCount() > open && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        return IiopConnections.openCount() <= open;
    }

    /** Reads what the server answers until it closes the connection (or 5 s pass), then closes this end. */
    private static void drainUntilClosed(final Socket socket) throws IOException {
        try (socket) {
            socket.setSoTimeout(5_000);
            socket.shutdownOutput();
            final InputStream in = socket.getInputStream();
            final byte[] buffer = new byte[4096];
            while (in.read(buffer) >= 0) {
                // Whatever the server answers is read and dropped.
            }
        } catch (SocketTimeoutException e) {
            // Still open after 5 s: closed from this end; the heap and thread checks judge what it left.
        } catch (IOException e) {
            // Reset by the server: closed.
        }
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        final Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    private static byte[] randomBytes(final Random random, final int length) {
        final byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** A GIOP 1.2 header of a random type (0..7) declaring the body's size, then the body. */
    private static byte[] withHeader(final byte[] body, final boolean littleEndian) {
        final ByteBuffer message = ByteBuffer.allocate(12 + body.length);
        message.put(new byte[] {'G', 'I', 'O', 'P', 1, 2, (byte) (littleEndian ? 1 : 0), (byte) (body.length % 8)});
        message.order(littleEndian ? java.nio.ByteOrder.LITTLE_ENDIAN : java.nio.ByteOrder.BIG_ENDIAN).putInt(body.length);
        return message.put(body).array();
    }

    /** A GIOP 1.2 Request header alone, declaring {@code messageBytes} in all (header included). */
    private static byte[] declaring(final long messageBytes, final boolean littleEndian) {
        final ByteBuffer header = ByteBuffer.allocate(12);
        header.put(new byte[] {'G', 'I', 'O', 'P', 1, 2, (byte) (littleEndian ? 1 : 0), REQUEST});
        header.order(littleEndian ? java.nio.ByteOrder.LITTLE_ENDIAN : java.nio.ByteOrder.BIG_ENDIAN).putInt((int) (messageBytes - 12));
        return header.array();
    }

    private static byte[] flipped(final Random random, final byte[] message) {
        final byte[] copy = message.clone();
        final int flips = 1 + random.nextInt(8);
        for (int i = 0; i < flips; i++) {
            copy[random.nextInt(copy.length)] ^= (byte) (1 + random.nextInt(255));
        }
        return copy;
    }

    /** The message with its header's size field set to {@code bodyBytes} (big-endian, as {@link #requestStatus} writes it). */
    private static byte[] withSize(final byte[] message, final int bodyBytes) {
        final byte[] copy = message.clone();
        ByteBuffer.wrap(copy).putInt(8, bodyBytes);
        return copy;
    }

    /**
     * A GIOP 1.2 {@code RequestStatus} request, big-endian, as JacORB would send it: request id, response
     * expected, a KeyAddr target with the server's object key, the operation, no service contexts, the
     * body aligned to 8, and the {@code short} argument.
     */
    private byte[] requestStatus(final int requestId, final short clientRef) {
        final Cdr cdr = new Cdr();
        cdr.bytes(new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, REQUEST});
        cdr.ulong(0); // size, set below
        cdr.ulong(requestId);
        cdr.bytes(new byte[] {3, 0, 0, 0});
        cdr.align(2);
        cdr.bytes(new byte[] {0, 0});
        cdr.align(4);
        cdr.ulong(objectKey.length);
        cdr.bytes(objectKey);
        final byte[] operation = "RequestStatus".getBytes(StandardCharsets.US_ASCII);
        cdr.align(4);
        cdr.ulong(operation.length + 1);
        cdr.bytes(operation);
        cdr.bytes(new byte[] {0});
        cdr.align(4);
        cdr.ulong(0);
        cdr.align(8);
        cdr.bytes(new byte[] {(byte) (clientRef >> 8), (byte) clientRef});
        final byte[] message = cdr.out.toByteArray();
        ByteBuffer.wrap(message).putInt(8, message.length - 12);
        return message;
    }

    /**
     * A GIOP 1.0 or 1.1 {@code RequestStatus} request, big-endian: one service context (an id JacORB
     * does not know, 5 bytes of data, so that padding follows), the request id, {@code response_expected}
     * (a CDR boolean: 0 or 1 are valid), in 1.1 three reserved bytes, the object key, the operation, an
     * empty principal and the {@code short} argument.
     */
    private byte[] requestStatusBefore12(final int minor, final int requestId, final byte responseExpected, final short clientRef) {
        final Cdr cdr = new Cdr();
        cdr.bytes(new byte[] {'G', 'I', 'O', 'P', 1, (byte) minor, 0, REQUEST});
        cdr.ulong(0); // size, set below
        cdr.ulong(1);
        cdr.ulong(0x4c530001);
        cdr.ulong(5);
        cdr.bytes(new byte[] {1, 2, 3, 4, 5});
        cdr.ulong(requestId);
        cdr.bytes(new byte[] {responseExpected});
        if (minor == 1) {
            cdr.bytes(new byte[] {0, 0, 0});
        }
        cdr.ulong(objectKey.length);
        cdr.bytes(objectKey);
        final byte[] operation = "RequestStatus".getBytes(StandardCharsets.US_ASCII);
        cdr.ulong(operation.length + 1);
        cdr.bytes(operation);
        cdr.bytes(new byte[] {0});
        cdr.ulong(0);
        cdr.align(2);
        cdr.bytes(new byte[] {(byte) (clientRef >> 8), (byte) clientRef});
        final byte[] message = cdr.out.toByteArray();
        ByteBuffer.wrap(message).putInt(8, message.length - 12);
        return message;
    }

    /** Big-endian CDR, aligned from the start of the message. */
    private static final class Cdr {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        void bytes(final byte[] bytes) {
            out.writeBytes(bytes);
        }

        void ulong(final int value) {
            align(4);
            out.writeBytes(ByteBuffer.allocate(4).putInt(value).array());
        }

        void align(final int boundary) {
            while (out.size() % boundary != 0) {
                out.write(0);
            }
        }
    }
}
