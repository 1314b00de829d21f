package org.latencyserver.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's web side, on the JDK's HTTP server: {@code GET /} the page (one self-contained
 * file, no external fetches), {@code GET /api/snapshot} the current {@link ConsoleSnapshot} as JSON,
 * {@code GET /events} server-sent events carrying each new snapshot, so the page updates live
 * without reloads.
 *
 * <p>Bounded: the HTTP handlers return at once (an event stream's handler only sends the headers
 * and hands the stream to {@link EventStreams}, whose one thread writes every stream), so the
 * threads do not grow with the number of open pages. At most {@code maxStreams} streams are open at
 * once; beyond that {@code /events} answers 503 with a plain-text reason and {@code Retry-After}. A
 * slow browser loses intermediate snapshots (it gets the newest), never delays the feed; one that
 * stops reading is dropped after {@value #STALL_MILLIS} ms. Handlers only read snapshots.
 *
 * <p>Slow clients: the JDK server reads a request's line and headers (over HTTPS, the TLS handshake
 * first) on a thread of its executor, so a client that sends them a line at a time holds a thread.
 * The JDK closes a connection that has not sent its whole request head within
 * {@value #REQUEST_HEADERS_SECONDS} s ({@code sun.net.httpserver.maxReqTime}, checked every second),
 * so a slow client holds a thread for at most that long. That time runs from the connection's
 * accept, also while its request waits for a thread: a request queued behind slow clients for
 * longer is closed unanswered. So the executor keeps {@value #CORE_HTTP_THREADS} threads and starts
 * more, up to {@value #MAX_HTTP_THREADS}, only when none is free (idle ones end after
 * {@value #IDLE_THREAD_SECONDS} s): a page is answered at once beside that many slow connections
 * less one. Beyond them requests queue for one more thread, {@link #HTTP_OVERFLOW_THREAD}. The
 * response time limit ({@code sun.net.httpserver.maxRspTime}) is left unset: it would end every
 * event stream. What reaches a handler has passed {@link ConsoleRequestGate}.
 *
 * <p>With {@link OperatorHttps} it serves HTTPS instead, to operators only: the same server class
 * (the JDK's {@code HttpsServer}), the same routes, gate and limits; the TLS handshake demands a
 * trusted client certificate, and a request whose certificate is not an operator's is answered 403
 * before the gate looks at it. {@link OperatorHttps} says why the JDK's server and client certificates.
 */
final class ConsoleWebServer implements AutoCloseable {

    /** Threads the HTTP server's executor keeps; handlers never block on a stream. */
    static final int CORE_HTTP_THREADS = 4;
    /** The most threads of the HTTP server's executor: each slow client holds one for up to {@link #REQUEST_HEADERS_SECONDS}. */
    static final int MAX_HTTP_THREADS = 128;
    /** Seconds a thread beyond {@link #CORE_HTTP_THREADS} stays idle before it ends. */
    static final int IDLE_THREAD_SECONDS = 30;
    /** The name of the thread that takes requests in turn when all {@link #MAX_HTTP_THREADS} are busy. */
    static final String HTTP_OVERFLOW_THREAD = "console-http-overflow";
    /** Seconds a connection may take over its request line and headers before the JDK server closes it. */
    static final int REQUEST_HEADERS_SECONDS = 5;
    /** Prefix of the HTTP executor's thread names. */
    static final String HTTP_THREAD_PREFIX = "console-http-";
    /** Seconds a page refused a stream is asked to wait ({@code Retry-After}); the page waits as long. */
    static final int RETRY_AFTER_SECONDS = 10;
    /** Connections the kernel queues before the server accepts them. */
    private static final int BACKLOG = 50;
    private static final long KEEPALIVE_MILLIS = 15_000;
    private static final long STALL_MILLIS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleWebServer.class);
    /** The JDK server's limit on reading a request line and headers, in seconds; read once per JVM. */
    static final String MAX_REQUEST_TIME_PROPERTY = "sun.net.httpserver.maxReqTime";
    /** The JDK server's limit on writing a response, in seconds; must stay unset, an event stream is one long response. */
    static final String MAX_RESPONSE_TIME_PROPERTY = "sun.net.httpserver.maxRspTime";

    static {
        // The JDK reads its server settings once, when the first HttpServer of the JVM is created; this
        // class is initialised before it creates its server, and no other part of the console creates one.
        if (System.getProperty(MAX_REQUEST_TIME_PROPERTY) == null) {
            System.setProperty(MAX_REQUEST_TIME_PROPERTY, Integer.toString(REQUEST_HEADERS_SECONDS));
        }
    }

    private final ObjectMapper json = new ObjectMapper();
    private final SnapshotSource<?> feed;
    private final byte[] page;
    private final EventStreams streams;
    private final HttpServer server;
    private final ThreadPoolExecutor executor;
    private final ExecutorService overflow;
    private final ConsoleRequestGate gate;
    /** The operators' HTTPS; null for plain HTTP (loopback only, {@link ConsoleContext#validate()}). */
    private final OperatorHttps https;
    /** Set while the streams are full and the refusal has been logged; one warning per full spell. */
    private final AtomicBoolean refusalLogged = new AtomicBoolean();

    /**
     * @param feed       the snapshots to serve
     * @param host       address to bind, loopback by default
     * @param port       port; 0 for any free one
     * @param maxStreams the most event streams (live pages) open at once; at least 1
     * @throws IOException when the port cannot be bound
     */
    ConsoleWebServer(final ServerFeed feed, final String host, final int port, final int maxStreams) throws IOException {
        this(feed, "console.html", host, port, maxStreams, null);
    }

    /**
     * @param feed       the snapshots to serve
     * @param host       address to bind
     * @param port       port; 0 for any free one
     * @param maxStreams the most event streams (live pages) open at once; at least 1
     * @param https      HTTPS for operators only; null for plain HTTP
     * @throws IOException when the port cannot be bound
     */
    ConsoleWebServer(final ServerFeed feed, final String host, final int port, final int maxStreams, final OperatorHttps https)
        throws IOException {
        this(feed, "console.html", host, port, maxStreams, https);
    }

    /**
     * @param source     what the page shows
     * @param pageName   the page, a resource beside this class ({@code console.html}, {@code partitions.html})
     * @param host       the address to listen on
     * @param port       the port, 0 for any free port
     * @param maxStreams the most live pages at once
     * @param https      HTTPS for operators only; null for plain HTTP
     * @throws IOException when the port cannot be bound or the page is missing
     */
    ConsoleWebServer(final SnapshotSource<?> source, final String pageName, final String host, final int port, final int maxStreams,
                     final OperatorHttps https) throws IOException {
        this.feed = source;
        try (InputStream in = ConsoleWebServer.class.getResourceAsStream(pageName)) {
            if (in == null) {
                throw new IOException(pageName + " is missing from the classpath");
            }
            this.page = in.readAllBytes();
        }
        if (System.getProperty(MAX_RESPONSE_TIME_PROPERTY) != null) {
            LOG.warn("{} is set ({} s): every live page's event stream ends after that long and reconnects",
                MAX_RESPONSE_TIME_PROPERTY, System.getProperty(MAX_RESPONSE_TIME_PROPERTY));
        }
        this.https = https;
        if (https == null) {
            this.server = HttpServer.create(new InetSocketAddress(host, port), BACKLOG);
        } else {
            final HttpsServer secure = HttpsServer.create(new InetSocketAddress(host, port), BACKLOG);
            secure.setHttpsConfigurator(https.configurator());
            this.server = secure;
        }
        final AtomicInteger threadNumber = new AtomicInteger();
        this.overflow = Executors.newSingleThreadExecutor(runnable -> daemon(runnable, HTTP_OVERFLOW_THREAD));
        // No queue: a request takes a free thread or starts one; past the maximum it waits for the overflow thread.
        this.executor = new ThreadPoolExecutor(CORE_HTTP_THREADS, MAX_HTTP_THREADS, IDLE_THREAD_SECONDS, TimeUnit.SECONDS,
            new SynchronousQueue<>(), runnable -> daemon(runnable, HTTP_THREAD_PREFIX + threadNumber.incrementAndGet()),
            (runnable, pool) -> overflow.execute(runnable));
        server.setExecutor(executor);
        this.gate = new ConsoleRequestGate(host, server.getAddress().getAddress(), server.getAddress().getPort());
        server.createContext("/", this::handle);
        this.streams = new EventStreams(maxStreams, KEEPALIVE_MILLIS, STALL_MILLIS);
        streams.publish(toJson(feed.snapshot()));
        feed.observe(snapshot -> streams.publish(toJson(snapshot)));
    }

    void start() {
        server.start();
    }

    /** @return the bound port */
    int port() {
        return server.getAddress().getPort();
    }

    /** @return {@code https} when it serves operators over HTTPS, else {@code http} */
    String scheme() {
        return https == null ? "http" : "https";
    }

    /** @return the event streams open now */
    int openStreams() {
        return streams.openStreams();
    }

    /** Every request: refused by the gate, or served by its route. */
    private void handle(final HttpExchange exchange) throws IOException {
        if (https != null) {
            final Optional<String> refusal = OperatorHttps.refusal(exchange);
            if (refusal.isPresent()) {
                send(exchange, 403, "text/plain; charset=utf-8", (refusal.get() + "\n").getBytes(StandardCharsets.UTF_8));
                return;
            }
        }
        final Optional<ConsoleRequestGate.Route> route = gate.admit(exchange);
        if (route.isEmpty()) {
            return;
        }
        switch (route.get()) {
            case PAGE -> send(exchange, 200, "text/html; charset=utf-8", page);
            case SNAPSHOT -> snapshot(exchange);
            case EVENTS -> events(exchange);
            default -> throw new IllegalStateException("no handler for " + route.get());
        }
    }

    private void snapshot(final HttpExchange exchange) throws IOException {
        send(exchange, 200, "application/json", toJson(feed.snapshot()).getBytes(StandardCharsets.UTF_8));
    }

    /** Opens a stream and returns; the broadcaster writes it from now on, and closes it. */
    private void events(final HttpExchange exchange) throws IOException {
        if (streams.openStreams() >= streams.maxStreams()) {
            refuse(exchange);
            return;
        }
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        if ("HEAD".equals(exchange.getRequestMethod())) {
            send(exchange, 200, "text/event-stream", new byte[0]);
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        final OutputStream out = exchange.getResponseBody();
        final EventStreams.Sink sink = new EventStreams.Sink() {
            @Override
            public void write(final byte[] bytes) throws IOException {
                out.write(bytes);
                out.flush();
            }

            @Override
            public void close() {
                exchange.close();
            }
        };
        if (streams.open(sink)) {
            refusalLogged.set(false);
        } else {
            // Another page took the last place since the check above; the headers are out, so end it.
            // The page's EventSource reconnects, and then gets the 503.
            exchange.close();
        }
    }

    private void refuse(final HttpExchange exchange) throws IOException {
        if (refusalLogged.compareAndSet(false, true)) {
            LOG.warn("the console serves as many live pages as it may (--max-streams {}); refusing more until one closes",
                streams.maxStreams());
        }
        exchange.getResponseHeaders().set("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
        send(exchange, 503, "text/plain; charset=utf-8", ("the console already serves as many live pages as it may"
            + " (--max-streams " + streams.maxStreams() + "); close another console page, or retry in " + RETRY_AFTER_SECONDS
            + " s\n").getBytes(StandardCharsets.UTF_8));
    }

    private static Thread daemon(final Runnable runnable, final String name) {
        final Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    private String toJson(final Object snapshot) {
        try {
            return json.writeValueAsString(snapshot);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a snapshot could not be written as JSON", e);
        }
    }

    private static void send(final HttpExchange exchange, final int status, final String type, final byte[] body)
        throws IOException {
        ConsoleRequestGate.send(exchange, status, type, body);
    }

    @Override
    public void close() {
        server.stop(0);
        streams.close();
        executor.shutdownNow();
        overflow.shutdownNow();
    }
}
