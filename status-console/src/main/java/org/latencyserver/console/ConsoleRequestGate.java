package org.latencyserver.console;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which requests the console answers: GET or HEAD, whose {@code Host} names the address the console
 * is bound to with its port, on exactly one of its {@link Route}s. A console bound to loopback also
 * answers {@code localhost}, {@code 127.0.0.1} and {@code [::1]} on any port: a rebinding page's
 * Host is its own DNS name, never a loopback literal, and a forward (an SSH tunnel, the real-network
 * demo's namespace forward) reaches the console under another port. Anything else is refused with a
 * plain-text reason: 421 for another Host (a page on another site that rebinds its DNS name to this
 * address cannot read the console), 404 for another path (a suffix of a route included), 405 with
 * {@code Allow: GET, HEAD} for another method. Immutable after construction; thread-safe.
 */
final class ConsoleRequestGate {

    /** The console's paths, matched exactly against the request's raw path (the query is ignored). */
    enum Route {
        PAGE("/"),
        SNAPSHOT("/api/snapshot"),
        EVENTS("/events");

        private final String path;

        Route(final String path) {
            this.path = path;
        }

        static Optional<Route> of(final String rawPath) {
            for (final Route route : values()) {
                if (route.path.equals(rawPath)) {
                    return Optional.of(route);
                }
            }
            return Optional.empty();
        }
    }

    static final String ALLOWED_METHODS = "GET, HEAD";
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|\\[[0-9a-fA-F:.%]+]");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");
    private static final int MAX_ECHOED_CHARS = 200;
    private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");

    private final int port;
    private final boolean anyLocalAddress;
    private final boolean loopbackNamesOnAnyPort;
    /** Accepted Host values, lower case, each with its port. */
    private final Set<String> hosts = new HashSet<>();
    private final String hostsInWords;

    /**
     * @param bindHost the address the console was asked to bind, as the operator wrote it
     * @param bound    the address it is bound to
     * @param port     the port it is bound to
     */
    ConsoleRequestGate(final String bindHost, final InetAddress bound, final int port) {
        this.port = port;
        this.anyLocalAddress = bound.isAnyLocalAddress();
        this.loopbackNamesOnAnyPort = bound.isLoopbackAddress();
        hosts.add(withPort(bracketed(bindHost)));
        hosts.add(withPort(bracketed(bound.getHostAddress())));
        if (bound.isLoopbackAddress() || anyLocalAddress) {
            hosts.add(withPort("localhost"));
            hosts.add(withPort("127.0.0.1"));
            hosts.add(withPort("[::1]"));
        }
        if (anyLocalAddress) {
            addLocalNames();
            hostsInWords = "this machine's names and addresses with port " + port;
        } else {
            final boolean localhostToo = bound.isLoopbackAddress() && !"localhost".equalsIgnoreCase(bindHost);
            hostsInWords = withPort(bracketed(bindHost)) + (localhostToo ? " or localhost" : "")
                + (loopbackNamesOnAnyPort ? " (loopback names on any port)" : "");
        }
    }

    /**
     * Admits the exchange, or answers it with the refusal and closes it.
     *
     * @param exchange a request just received
     * @return its route when it may be served; empty when it was refused (and is answered)
     * @throws IOException when the refusal cannot be sent
     */
    Optional<Route> admit(final HttpExchange exchange) throws IOException {
        final String host = exchange.getRequestHeaders().getFirst("Host");
        if (host == null || !hostAccepted(host.trim())) {
            refuse(exchange, 421, "the console answers requests for " + hostsInWords + " only, not "
                + (host == null ? "a request without a Host header" : "Host: " + echoed(host)));
            return Optional.empty();
        }
        final Optional<Route> route = Route.of(exchange.getRequestURI().getRawPath());
        if (route.isEmpty()) {
            refuse(exchange, 404, "not found: the console serves /, /api/snapshot and /events");
            return Optional.empty();
        }
        final String method = exchange.getRequestMethod();
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            exchange.getResponseHeaders().set("Allow", ALLOWED_METHODS);
            refuse(exchange, 405, "the console answers GET and HEAD only, not " + echoed(method));
            return Optional.empty();
        }
        return route;
    }

    /**
     * Sends a complete response; for HEAD only its status and headers.
     *
     * @param exchange the exchange, closed on return
     * @param status   the HTTP status
     * @param type     the Content-Type
     * @param body     the body of a GET
     * @throws IOException when it cannot be sent
     */
    static void send(final HttpExchange exchange, final int status, final String type, final byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        if ("HEAD".equals(exchange.getRequestMethod())) {
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
            return;
        }
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static void refuse(final HttpExchange exchange, final int status, final String reason) throws IOException {
        send(exchange, status, "text/plain; charset=utf-8", (reason + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private boolean hostAccepted(final String host) {
        final String lower = host.toLowerCase(Locale.ROOT);
        final String withPort = port == 80 && !lower.endsWith("]") && lower.indexOf(':') < 0 ? withPort(lower) : lower;
        if (hosts.contains(withPort) || loopbackNamesOnAnyPort && LOOPBACK_NAMES.contains(withoutPort(lower))) {
            return true;
        }
        return anyLocalAddress && withPort.endsWith(":" + port) && isLocalAddressLiteral(withPort.substring(0,
            withPort.length() - (":" + port).length()));
    }

    /** For a wildcard binding: an IP literal of one of this machine's interfaces; never a DNS lookup. */
    private static boolean isLocalAddressLiteral(final String name) {
        if (!IP_LITERAL.matcher(name).matches()) {
            return false;
        }
        try {
            final String literal = name.startsWith("[") ? name.substring(1, name.length() - 1) : name;
            return NetworkInterface.getByInetAddress(InetAddress.getByName(literal)) != null;
        } catch (UnknownHostException | SocketException e) {
            return false;
        }
    }

    private void addLocalNames() {
        try {
            final InetAddress local = InetAddress.getLocalHost();
            hosts.add(withPort(local.getHostName().toLowerCase(Locale.ROOT)));
            hosts.add(withPort(local.getCanonicalHostName().toLowerCase(Locale.ROOT)));
        } catch (UnknownHostException e) {
            // This machine has no name that resolves: its addresses are still accepted.
        }
    }

    /** @return the name of a Host value without its port; empty when its port is not a number */
    private static String withoutPort(final String host) {
        final int colon = host.lastIndexOf(':');
        if (colon <= host.lastIndexOf(']')) {
            return host;
        }
        return PORT.matcher(host.substring(colon + 1)).matches() ? host.substring(0, colon) : "";
    }

    private String withPort(final String name) {
        return name.toLowerCase(Locale.ROOT) + ":" + port;
    }

    private static String bracketed(final String address) {
        return address.indexOf(':') >= 0 && !address.startsWith("[") ? "[" + address + "]" : address;
    }

    /** A client's string as the refusal repeats it: shortened, control characters escaped. */
    private static String echoed(final String text) {
        final String shortened = text.length() > MAX_ECHOED_CHARS ? text.substring(0, MAX_ECHOED_CHARS) + "..." : text;
        return TerminalText.safe(shortened);
    }
}
