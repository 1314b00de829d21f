package org.latencyserver.console;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Raw HTTP/1.1 requests to the console, with any method, Host and path a hostile page could send. */
final class ConsoleHttpClient {

    /** A response as read: its status and everything after the blank line. */
    record Response(int status, String head, String body) {
    }

    private ConsoleHttpClient() {
    }

    /** @return the server under test: never reachable, so its snapshots are "unreachable" ones */
    static ConsoleWebServer startServer() throws IOException {
        final ServerFeed feed = new ServerFeed("test-server", () -> {
            throw new org.omg.CORBA.TRANSIENT("no server in this test");
        }, null, 1_000, System::currentTimeMillis);
        final ConsoleWebServer web = new ConsoleWebServer(feed, "127.0.0.1", 0, 4);
        web.start();
        return web;
    }

    /**
     * Sends one request with {@code Connection: close} and reads the whole response.
     *
     * @param port   the console's port
     * @param method the request method
     * @param path   the request target, sent as it is
     * @param host   the Host header's value; null for none
     * @return the response
     * @throws IOException when the server does not answer within 10 s
     */
    static Response request(final int port, final String method, final String path, final String host) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            final OutputStream out = socket.getOutputStream();
            out.write((method + " " + path + " HTTP/1.1\r\n" + (host == null ? "" : "Host: " + host + "\r\n")
                + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            final String text = readToEnd(socket.getInputStream());
            final int headEnd = text.indexOf("\r\n\r\n");
            final String head = headEnd < 0 ? text : text.substring(0, headEnd);
            final String body = headEnd < 0 ? "" : text.substring(headEnd + 4);
            return new Response(Integer.parseInt(head.split(" ", 3)[1]), head, body);
        }
    }

    private static String readToEnd(final InputStream in) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) > 0) {
            bytes.write(buffer, 0, n);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
