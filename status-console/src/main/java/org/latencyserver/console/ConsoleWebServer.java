package org.latencyserver.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's web side, on the JDK's HTTP server: {@code GET /} the page (one self-contained
 * file, no external fetches), {@code GET /api/snapshot} the current {@link ConsoleSnapshot} as JSON,
 * {@code GET /events} server-sent events carrying each new snapshot, so the page updates live
 * without reloads.
 *
 * <p>Each event stream has its own small queue: a slow browser loses intermediate snapshots (it
 * gets the newest), never delays the feed or another browser. Handlers only read snapshots.
 */
final class ConsoleWebServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleWebServer.class);
    private static final long KEEPALIVE_MILLIS = 15_000;

    private final ObjectMapper json = new ObjectMapper();
    private final ServerFeed feed;
    private final byte[] page;
    private final List<BlockingQueue<String>> streams = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    private final ExecutorService executor;
    private volatile boolean closed;

    /**
     * @param feed the snapshots to serve
     * @param host address to bind, loopback by default
     * @param port port; 0 for any free one
     * @throws IOException when the port cannot be bound
     */
    ConsoleWebServer(final ServerFeed feed, final String host, final int port) throws IOException {
        this.feed = feed;
        try (InputStream in = ConsoleWebServer.class.getResourceAsStream("console.html")) {
            if (in == null) {
                throw new IOException("console.html is missing from the classpath");
            }
            this.page = in.readAllBytes();
        }
        this.server = HttpServer.create(new InetSocketAddress(host, port), 50);
        this.executor = Executors.newCachedThreadPool(runnable -> {
            final Thread thread = new Thread(runnable, "console-http");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/", this::page);
        server.createContext("/api/snapshot", this::snapshot);
        server.createContext("/events", this::events);
        feed.observe(this::broadcast);
    }

    void start() {
        server.start();
    }

    /** @return the bound port */
    int port() {
        return server.getAddress().getPort();
    }

    private void page(final HttpExchange exchange) throws IOException {
        if (!"/".equals(exchange.getRequestURI().getPath())) {
            send(exchange, 404, "text/plain; charset=utf-8", "not found\n".getBytes(StandardCharsets.UTF_8));
            return;
        }
        send(exchange, 200, "text/html; charset=utf-8", page);
    }

    private void snapshot(final HttpExchange exchange) throws IOException {
        send(exchange, 200, "application/json", toJson(feed.snapshot()).getBytes(StandardCharsets.UTF_8));
    }

    private void events(final HttpExchange exchange) throws IOException {
        final BlockingQueue<String> queue = new ArrayBlockingQueue<>(2);
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        streams.add(queue);
        try (OutputStream out = exchange.getResponseBody()) {
            write(out, "data: " + toJson(feed.snapshot()) + "\n\n");
            while (!closed) {
                final String next = queue.poll(KEEPALIVE_MILLIS, TimeUnit.MILLISECONDS);
                write(out, next == null ? ": keep-alive\n\n" : "data: " + next + "\n\n");
            }
        } catch (IOException e) {
            LOG.debug("an event stream closed: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            streams.remove(queue);
        }
    }

    private void broadcast(final ConsoleSnapshot snapshot) {
        if (streams.isEmpty()) {
            return;
        }
        final String text = toJson(snapshot);
        for (final BlockingQueue<String> queue : streams) {
            while (!queue.offer(text)) {
                queue.poll(); // the browser is behind: drop the older snapshot, keep the newest
            }
        }
    }

    private String toJson(final ConsoleSnapshot snapshot) {
        try {
            return json.writeValueAsString(snapshot);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a snapshot could not be written as JSON", e);
        }
    }

    private static void write(final OutputStream out, final String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void send(final HttpExchange exchange, final int status, final String type, final byte[] body)
        throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        closed = true;
        server.stop(0);
        executor.shutdownNow();
    }
}
