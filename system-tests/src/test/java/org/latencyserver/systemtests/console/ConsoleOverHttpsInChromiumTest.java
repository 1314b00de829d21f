package org.latencyserver.systemtests.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.server.security.LocalCertificateAuthority;
import org.latencyserver.systemtests.kit.HeadlessChromium;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console over HTTPS in a real headless Chromium, logged in by an operator's client certificate:
 * the console runs with {@code ./latency certs --console 127.0.0.1}'s server store; each browser has an
 * NSS database of its own ({@code $HOME/.pki/nssdb}, made with {@code certutil} and {@code pk12util} of
 * Debian's {@code libnss3-tools}) holding the CA and, for the operator and the agent, that party's store.
 * A headless browser cannot answer the certificate prompt, so the test writes Chromium's managed policy
 * {@code AutoSelectCertificateForUrls} for the console's URL (in {@value #POLICY_DIRECTORY}, hence root)
 * and deletes it afterwards. The operator gets the live page; the agent the 403 reason; a browser
 * without a certificate no page (the handshake fails).
 */
class ConsoleOverHttpsInChromiumTest {

    private static final String POLICY_DIRECTORY = "/etc/chromium/policies/managed";
    private static final String PASSWORD = "chromium-test-pass";

    @TempDir
    Path directory;

    @Test
    void anOperatorsBrowserGetsTheLivePageAnAgentsGets403AndOneWithoutACertificateNoPage() throws Exception {
        assertTrue(Files.isExecutable(Path.of("/usr/bin/certutil")) && Files.isExecutable(Path.of("/usr/bin/pk12util")),
            "Debian's libnss3-tools is needed (apt-get install libnss3-tools; .ci/run installs it)");
        final LocalCertificateAuthority ca = LocalCertificateAuthority.open(directory.resolve("certs"), PASSWORD);
        final Path consoleStore = ca.issue("console-127.0.0.1", LocalCertificateAuthority.subject("console", "127.0.0.1"),
            LocalCertificateAuthority.Usage.SERVER, "127.0.0.1");
        final Path operator = ca.issue("operator-ops1", LocalCertificateAuthority.subject("operator", "ops1"),
            LocalCertificateAuthority.Usage.CLIENT);
        final Path agent = ca.issue("agent-ws1", LocalCertificateAuthority.subject("agent", "ws1"),
            LocalCertificateAuthority.Usage.CLIENT);
        try (ConsoleTestbed testbed = new ConsoleTestbed(directory)) {
            testbed.push(10, 10, 50);
            final String url = testbed.webConsoleWith("web-https", Map.of("LATENCY_TLS_PASSWORD", PASSWORD), "--http-port", "0",
                "--https-keystore", consoleStore.toString(), "--https-truststore", ca.trustStore().toString());
            assertTrue(url.startsWith("https://127.0.0.1:"), url);
            final Path policy = Path.of(POLICY_DIRECTORY, "latency-console-https-test-" + ProcessHandle.current().pid() + ".json");
            Files.createDirectories(policy.getParent());
            final String origin = url.substring(0, url.length() - 1);
            Files.writeString(policy, "{ \"AutoSelectCertificateForUrls\": [\"{\\\"pattern\\\":\\\"" + origin
                + "\\\",\\\"filter\\\":{\\\"ISSUER\\\":{\\\"O\\\":\\\"" + LocalCertificateAuthority.ORGANISATION + "\\\"}}}\"] }\n",
                StandardCharsets.UTF_8);
            try {
                final ChromeDriver operatorBrowser = browser("operator", ca, operator);
                try {
                    operatorBrowser.get(url);
                    new WebDriverWait(operatorBrowser, Duration.ofSeconds(30))
                        .until(b -> b.findElements(By.cssSelector("#connections tbody tr")).size() == 8);
                    assertEquals("Latency Server — status console", operatorBrowser.getTitle());
                } finally {
                    operatorBrowser.quit();
                }

                final ChromeDriver agentBrowser = browser("agent", ca, agent);
                try {
                    agentBrowser.get(url);
                    assertEquals("the console serves operators only (OU=operator); the client certificate"
                        + " CN=ws1,OU=agent,O=Latency Server is not an operator's", agentBrowser.findElement(By.tagName("body")).getText());
                } finally {
                    agentBrowser.quit();
                }

                final ChromeDriver anonymousBrowser = browser("anonymous", ca, null);
                try {
                    anonymousBrowser.get(url);
                    assertNotEquals("Latency Server — status console", anonymousBrowser.getTitle());
                    assertTrue(anonymousBrowser.findElements(By.cssSelector("#connections")).isEmpty(),
                        "no page without a certificate: " + anonymousBrowser.getPageSource());
                } finally {
                    anonymousBrowser.quit();
                }
            } finally {
                Files.deleteIfExists(policy);
            }
        }
    }

    /** A browser whose NSS database trusts the CA and holds this party's store (none when null). */
    private ChromeDriver browser(final String name, final LocalCertificateAuthority ca, final Path store)
        throws IOException, InterruptedException {
        final Path home = Files.createDirectories(directory.resolve("home-" + name));
        final Path database = Files.createDirectories(home.resolve(".pki").resolve("nssdb"));
        final String sqlDatabase = "sql:" + database;
        run(List.of("certutil", "-N", "-d", sqlDatabase, "--empty-password"));
        run(List.of("certutil", "-A", "-d", sqlDatabase, "-n", "latency-ca", "-t", "C,,", "-i",
            ca.directory().resolve("ca.pem").toString()));
        if (store != null) {
            run(List.of("pk12util", "-i", store.toString(), "-d", sqlDatabase, "-W", PASSWORD));
        }
        return HeadlessChromium.start(home, Map.of("HOME", home.toString()));
    }

    private static void run(final List<String> command) throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), command + " did not finish");
        assertEquals(0, process.exitValue(), command + ": " + output);
    }
}
