package org.latencyserver.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.ORB;

/**
 * What hostile callers make a server process hold, measured from outside ({@link ServerProbe}: heap
 * after a full GC, resident set, threads): first {@code harness.oversized.callers} (64) connections
 * that each send a GIOP 1.2 request header declaring {@code harness.oversized.bytes} (201,326,592: a
 * {@code submit_measurement} of 8,388,608 bins) and the first MiB of its body, then hold; then
 * {@code harness.idle.connections} (1000) connections that send nothing, held for
 * {@code harness.idle.wait.seconds} (70, past the default idle time-out of 60 s), counting how many the
 * server closed. Between and after, a real {@code RequestStatus} call must be answered.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.OversizedCallsHarness};
 * 1000 sockets need {@code ulimit -n} above about 1,100 in the shell that starts it (the server is its child).
 */
public final class OversizedCallsHarness {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final int BODY_CHUNK_BYTES = 64 * 1024;

    private OversizedCallsHarness() {
    }

    /**
     * @param args none
     * @throws Exception when the server cannot start or a step fails
     */
    public static void main(final String[] args) throws Exception {
        final int oversizedCallers = Integer.getInteger("harness.oversized.callers", 64);
        final long declaredBytes = Long.getLong("harness.oversized.bytes", 8_388_608L * 24);
        final int sentBodyBytes = Integer.getInteger("harness.oversized.sent.bytes", 1 << 20);
        final int idleConnections = Integer.getInteger("harness.idle.connections", 1000);
        final int idleWaitSeconds = Integer.getInteger("harness.idle.wait.seconds", 70);
        try (TemporaryDirectory scratch = TemporaryDirectory.create("oversized-harness")) {
            final Path work = scratch.path();
            final Path config = RepositoryFiles.testbedConfig(work);
            final int port;
            try (ServerSocket free = new ServerSocket(0)) {
                port = free.getLocalPort();
            }
            try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
                final ChildProcess server = kit.launch(Component.SERVER).name("server")
                    .args("--config", config.toString(), "--ior-file", work.resolve("server.ior").toString(), "--metrics-port", "0",
                        "--host", "127.0.0.1", "--port", Integer.toString(port)).start();
                final ReadyFile ready = server.awaitReady(READY_TIMEOUT);
                final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
                final Latserv latserv = LatservHelper.narrow(orb.string_to_object(ready.reference("server")));
                try {
                    System.out.println("server pid " + server.pid() + ", port " + port);
                    report("baseline", server, latserv);

                    final List<Socket> oversized = new ArrayList<>();
                    final AtomicInteger refusedWhileSending = new AtomicInteger();
                    final ExecutorService senders = Executors.newFixedThreadPool(oversizedCallers);
                    final CountDownLatch sent = new CountDownLatch(oversizedCallers);
                    for (int i = 0; i < oversizedCallers; i++) {
                        final Socket socket = new Socket("127.0.0.1", port);
                        oversized.add(socket);
                        senders.execute(() -> {
                            try {
                                sendOversized(socket, declaredBytes, sentBodyBytes);
                            } catch (IOException e) {
                                refusedWhileSending.incrementAndGet();
                            } finally {
                                sent.countDown();
                            }
                        });
                    }
                    sent.await(60, TimeUnit.SECONDS);
                    senders.shutdown();
                    final long peakResidentKib = peakResident(server.pid(), Duration.ofSeconds(5));
                    System.out.printf(Locale.ROOT, "%d connections each declared %,d bytes and sent %,d of them: %d saw the"
                        + " connection closed while sending, %d closed by the server after 5 s; peak resident %d MiB%n",
                        oversizedCallers, declaredBytes, sentBodyBytes, refusedWhileSending.get(), closedByServer(oversized),
                        peakResidentKib / 1024);
                    report("oversized calls held", server, latserv);
                    closeAll(oversized);
                    report("oversized calls closed", server, latserv);

                    final List<Socket> idle = new ArrayList<>();
                    for (int i = 0; i < idleConnections; i++) {
                        idle.add(new Socket("127.0.0.1", port));
                    }
                    Thread.sleep(5_000);
                    System.out.printf(Locale.ROOT, "%d idle connections after 5 s: %d closed by the server%n", idleConnections,
                        closedByServer(idle));
                    report("idle connections held 5 s", server, latserv);
                    Thread.sleep(Math.max(0, idleWaitSeconds - 5) * 1000L);
                    System.out.printf(Locale.ROOT, "%d idle connections after %d s: %d closed by the server%n", idleConnections,
                        idleWaitSeconds, closedByServer(idle));
                    report("idle connections held " + idleWaitSeconds + " s", server, latserv);
                    closeAll(idle);
                } finally {
                    orb.shutdown(false);
                }
            }
        }
    }

    /** A GIOP 1.2 request header (big-endian) declaring {@code declaredBytes} in all, then the first bytes of its body. */
    private static void sendOversized(final Socket socket, final long declaredBytes, final int sentBodyBytes) throws IOException {
        final OutputStream out = socket.getOutputStream();
        final ByteBuffer header = ByteBuffer.allocate(12);
        header.put(new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, 0}).putInt((int) (declaredBytes - 12));
        out.write(header.array());
        final byte[] chunk = new byte[BODY_CHUNK_BYTES];
        for (int written = 0; written < sentBodyBytes; written += chunk.length) {
            out.write(chunk, 0, Math.min(chunk.length, sentBodyBytes - written));
        }
        out.flush();
    }

    /** @return how many of the sockets the server has closed (a read sees the end of the stream or a reset) */
    private static int closedByServer(final List<Socket> sockets) {
        int closed = 0;
        for (final Socket socket : sockets) {
            try {
                socket.setSoTimeout(1);
                final InputStream in = socket.getInputStream();
                int read;
                do {
                    read = in.read();
                } while (read >= 0);
                closed++;
            } catch (SocketTimeoutException e) {
                // Still open.
            } catch (IOException e) {
                closed++;
            }
        }
        return closed;
    }

    private static long peakResident(final long pid, final Duration during) throws InterruptedException {
        final long end = System.nanoTime() + during.toNanos();
        long peak = -1;
        while (System.nanoTime() < end) {
            peak = Math.max(peak, ServerProbe.statusKib(pid, "VmRSS:"));
            Thread.sleep(100);
        }
        return peak;
    }

    private static void closeAll(final List<Socket> sockets) {
        for (final Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException e) {
                // Closing is all that is wanted.
            }
        }
    }

    private static void report(final String when, final ChildProcess server, final Latserv latserv)
        throws IOException, InterruptedException {
        String answered;
        try {
            latserv.RequestStatus((short) 1);
            answered = "RequestStatus answered";
        } catch (RuntimeException e) {
            answered = "RequestStatus failed: " + e;
        }
        final ServerProbe.Heap heap = ServerProbe.Heap.afterGc(server.pid());
        System.out.printf(Locale.ROOT, "%-32s %s, threads %d, %s, server alive %s%n", when + ":", heap.describe(),
            ServerProbe.statusKib(server.pid(), "Threads:"), answered, server.isAlive());
    }
}
