package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The web page over HTTPS serves operators only: a browser with an operator's client certificate
 * gets the page; one without a client certificate fails the TLS handshake (no HTTP response at
 * all); one with a trusted certificate of another role (an agent's) gets 403 saying why. Off
 * loopback the page is HTTPS or nothing: a plain {@code --bind} to a non-loopback address exits 2
 * naming the options that fix it.
 */
class ConsoleHttpsTest {

    private static final String NO_SERVER = "corbaloc::127.0.0.1:1/LatencyServer";

    @TempDir
    static Path directory;

    private static HttpsTestStores stores;
    private static ConsoleWebServer web;

    @BeforeAll
    static void start() throws Exception {
        stores = HttpsTestStores.make(directory);
        web = new ConsoleWebServer(unreachableFeed(), "127.0.0.1", 0, 4, OperatorHttps.of(stores.consoleStores()));
        web.start();
    }

    @AfterAll
    static void stop() {
        web.close();
    }

    @Test
    void anOperatorsCertificateIsServedThePageAndTheSnapshot() throws Exception {
        final HttpClient operator = client(stores.clientContext(stores.client("operator", "alice")));
        final HttpResponse<String> page = get(operator, "https://127.0.0.1:" + web.port() + "/");
        assertEquals(200, page.statusCode(), page.body());
        assertTrue(page.body().contains("<html"), page.body());
        final HttpResponse<String> snapshot = get(operator, "https://localhost:" + web.port() + "/api/snapshot");
        assertEquals(200, snapshot.statusCode(), snapshot.body());
        assertTrue(snapshot.body().startsWith("{\"server\":\"test-server\""), snapshot.body());
    }

    @Test
    void anOperatorStillMeetsTheGateAnotherPathIs404() throws Exception {
        final HttpClient operator = client(stores.clientContext(stores.client("operator", "carol")));
        assertEquals(404, get(operator, "https://127.0.0.1:" + web.port() + "/api/snapshot/x").statusCode());
    }

    @Test
    void aClientWithoutACertificateFailsTheHandshakeAndGetsNoResponse() throws Exception {
        final HttpClient anonymous = client(stores.clientContext(null));
        assertThrows(IOException.class, () -> get(anonymous, "https://127.0.0.1:" + web.port() + "/"));
        try (SSLSocket socket = (SSLSocket) stores.clientContext(null).getSocketFactory().createSocket("127.0.0.1", web.port())) {
            socket.setSoTimeout(10_000);
            assertEquals(-1, firstByteOfTheAnswer(socket), "the server closes the connection without answering");
        }
    }

    /** @return the first byte the server sends after the handshake and a request; -1 when it closes the connection instead */
    private static int firstByteOfTheAnswer(final SSLSocket socket) throws IOException {
        try {
            socket.startHandshake();
            socket.getOutputStream().write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + socket.getPort() + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return socket.getInputStream().read();
        } catch (SSLException | java.net.SocketException e) {
            // An alert or a reset instead of a clean close: no answer either (a timeout is no refusal, and fails the test).
            return -1;
        }
    }

    @Test
    void anAgentsCertificateIsTrustedButRefused403() throws Exception {
        final HttpClient agent = client(stores.clientContext(stores.client("agent", "ws1")));
        final HttpResponse<String> refused = get(agent, "https://127.0.0.1:" + web.port() + "/api/snapshot");
        assertEquals(403, refused.statusCode(), refused.body());
        assertEquals("the console serves operators only (OU=operator); the client certificate CN=ws1,OU=agent,O=Latency Server"
            + " is not an operator's\n", refused.body());
    }

    @Test
    void boundToANonLoopbackAddressOverHttpsTheAddressIsAcceptedAsHost() throws Exception {
        final Optional<InetAddress> address = HttpsTestStores.nonLoopbackAddress();
        assumeTrue(address.isPresent(), "this machine has no non-loopback IPv4 address");
        final String host = address.get().getHostAddress();
        try (ConsoleWebServer outside = new ConsoleWebServer(unreachableFeed(), host, 0, 4, OperatorHttps.of(stores.consoleStores()))) {
            outside.start();
            final HttpClient operator = client(stores.clientContext(stores.client("operator", "dave")));
            final HttpResponse<String> page = get(operator, "https://" + host + ":" + outside.port() + "/");
            assertEquals(200, page.statusCode(), page.body());
        }
    }

    @Test
    void aPlainBindOffLoopbackIsRefusedExitTwoWithOneLineNamingTheHttpsOptions() {
        final Optional<InetAddress> address = HttpsTestStores.nonLoopbackAddress();
        assumeTrue(address.isPresent(), "this machine has no non-loopback IPv4 address");
        final String host = address.get().getHostAddress();
        final ByteArrayOutputStream errors = new ByteArrayOutputStream();
        final int exit = runConsole(errors, "--server", NO_SERVER, "--bind", host, "--http-port", "0");
        assertEquals(2, exit);
        assertEquals("latency console: " + ConsoleContext.OFF_LOOPBACK_REFUSAL.formatted(host) + System.lineSeparator(),
            errors.toString(StandardCharsets.UTF_8));
        assertTrue(errors.toString(StandardCharsets.UTF_8).contains("--https-keystore FILE and --https-truststore FILE"));
    }

    @Test
    void anHttpsKeystoreWithoutATruststoreIsRefusedExitTwo() {
        final ByteArrayOutputStream errors = new ByteArrayOutputStream();
        final int exit = runConsole(errors, "--server", NO_SERVER, "--http-port", "0", "--https-keystore",
            stores.consoleStores().keystore().toString());
        assertEquals(2, exit);
        assertEquals("latency console: --https-keystore and --https-truststore go together" + System.lineSeparator(),
            errors.toString(StandardCharsets.UTF_8));
    }

    /** Runs the console's command line in this JVM, its standard error into {@code errors}; returns its exit code. */
    private static int runConsole(final ByteArrayOutputStream errors, final String... args) {
        final PrintStream standardError = System.err;
        System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
        try {
            return new CommandLine(new ConsoleMain()).execute(args);
        } finally {
            System.setErr(standardError);
        }
    }

    @Test
    void theBindCheckTakesLoopbackAndRefusesTheWildcardAndAnotherAddressWithoutHttps() {
        new ConsoleContext().server(NO_SERVER).bindAddress("127.0.0.1").validate();
        new ConsoleContext().server(NO_SERVER).bindAddress("localhost").validate();
        new ConsoleContext().server(NO_SERVER).bindAddress("::1").validate();
        for (final String outside : new String[] {"0.0.0.0", "192.0.2.1", "::"}) {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new ConsoleContext().server(NO_SERVER).bindAddress(outside).validate());
            assertEquals(ConsoleContext.OFF_LOOPBACK_REFUSAL.formatted(outside), refused.getMessage());
        }
        new ConsoleContext().server(NO_SERVER).bindAddress("0.0.0.0").webPage(false).validate();
        new ConsoleContext().server(NO_SERVER).bindAddress("0.0.0.0").https(stores.consoleStores()).validate();
    }

    @Test
    void storesThatTheirPasswordDoesNotOpenAreRefusedNamingTheOption() {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new ConsoleContext()
            .server(NO_SERVER).https(new org.latencyserver.orb.TlsStores(stores.consoleStores().keystore(),
                stores.consoleStores().truststore(), "not-the-password")).validate());
        assertTrue(refused.getMessage().startsWith("--https-keystore " + stores.consoleStores().keystore()
            + " cannot be opened as PKCS#12 with the password"), refused.getMessage());
    }

    @Test
    void theConsoleLaunchedWithHttpsNamesAnHttpsUrl() throws Exception {
        try (StatusConsole console = StatusConsole.launch(new ConsoleContext().server(NO_SERVER).httpPort(0)
            .https(stores.consoleStores()))) {
            assertEquals("https://127.0.0.1:" + console.httpPort() + "/", console.url());
            final HttpClient operator = client(stores.clientContext(stores.client("operator", "erin")));
            assertEquals(200, get(operator, console.url()).statusCode());
        }
    }

    private static ServerFeed unreachableFeed() {
        return new ServerFeed("test-server", () -> {
            throw new org.omg.CORBA.TRANSIENT("no server in this test");
        }, null, 1_000, System::currentTimeMillis);
    }

    private static HttpClient client(final SSLContext context) {
        return HttpClient.newBuilder().sslContext(context).version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    }

    private static HttpResponse<String> get(final HttpClient client, final String url) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
