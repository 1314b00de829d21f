package org.latencyserver.systemtests.kit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium, headless, driven through its ChromeDriver: the real browser the console's pages
 * are tested in. Only loopback is reachable here, so everything that would go out is switched off.
 */
public final class HeadlessChromium {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private HeadlessChromium() {
    }

    /**
     * @param directory where its profile goes ({@code DIRECTORY/chromium-profile})
     * @return a new browser; the caller quits it
     */
    public static ChromeDriver start(final Path directory) throws IOException {
        return start(directory, Map.of());
    }

    /**
     * @param directory   where its profile goes ({@code DIRECTORY/chromium-profile})
     * @param environment variables for the browser's process beside the inherited ones, e.g. {@code HOME}, whose
     *                    {@code .pki/nssdb} holds the client certificates Chromium may present
     * @return a new browser; the caller quits it
     */
    public static ChromeDriver start(final Path directory, final Map<String, String> environment) throws IOException {
        assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
            "Debian's chromium and chromium-driver are needed (apt-get install chromium chromium-driver; .ci/run installs them)");
        final ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
            "--window-size=1366,768", "--user-data-dir=" + Files.createDirectories(directory.resolve("chromium-profile")));
        final ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort().withEnvironment(environment).build();
        return new ChromeDriver(service, options);
    }
}
