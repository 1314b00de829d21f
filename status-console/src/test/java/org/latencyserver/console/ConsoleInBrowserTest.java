package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console's web page in a real headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}, installed by {@code .ci/run}), against a real server: it lists the
 * connections, an estimate changes on the page without a reload when a state changes, and a
 * connection's histogram renders. It also writes the screenshot the README shows.
 */
class ConsoleInBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @TempDir
    Path directory;

    @Test
    void thePageListsTheConnectionsFollowsAStateChangeLiveAndDrawsAHistogram() throws Exception {
        assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
            "Debian's chromium and chromium-driver are needed (apt-get install chromium chromium-driver; .ci/run installs them)");
        try (ConsoleTestbed testbed = new ConsoleTestbed(directory)) {
            testbed.push(10, 10, 50);
            final Process console = testbed.console("web", "--http-port", "0", "--refresh-millis", "5000");
            final String url = testbed.awaitConsoleUrl(console, "web");

            final ChromeDriver browser = browser();
            try {
                browser.get(url);
                final WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
                wait.until(b -> b.findElements(By.cssSelector("#connections tbody tr")).size() == 6);
                assertEquals(List.of("1", "2", "3", "4", "5", "6"), ((JavascriptExecutor) browser).executeScript(
                    "return [...document.querySelectorAll('#connections tbody tr')].map(r => r.dataset.indexRef);"));
                assertTrue(text(browser, "tr[data-index-ref='3'] td.nodes").endsWith("LOCAL-2CORE → LOCAL-2CORE"),
                    "a configured workstation type by its name: " + text(browser, "tr[data-index-ref='3'] td.nodes"));
                assertTrue(text(browser, "tr[data-index-ref='1'] td.nodes").endsWith("TAC-4 → TAC-4"));
                final String before = estimateOf(browser, 1);
                assertTrue(before.startsWith("1.365 ms"), "thesis Appendix A, TAC-4 256 B LOW/LOW: " + before);

                // A marker in the page's own JavaScript state: a reload would lose it.
                ((JavascriptExecutor) browser).executeScript("window.__notReloaded = true;");
                testbed.push(80, 10, 50); // HIGH/LOW: pushed to the console, which refreshes at once
                wait.until(b -> !estimateOf(b, 1).equals(before));
                assertTrue(estimateOf(browser, 1).startsWith("2.386 ms"), "HIGH/LOW reads the 0-33/67-100 cell: " + estimateOf(browser, 1));
                assertEquals(Boolean.TRUE, ((JavascriptExecutor) browser).executeScript("return window.__notReloaded === true;"),
                    "the page changed without a reload");
                assertTrue(text(browser, "tr[data-index-ref='1'] td.cpu-state").startsWith("HIGH/LOW"));

                // A measured connection: its histogram renders when the row is clicked.
                testbed.measure(4);
                wait.until(b -> !estimateOf(b, 4).startsWith("none"));
                click(browser, "tr[data-index-ref='4']");
                wait.until(b -> !"0".equals(attribute(b, "#histogram", "data-bins")));
                assertEquals("6", attribute(browser, "#histogram", "data-bins"), "the six bins the agent submitted");
                assertTrue(text(browser, "#histogram-message").startsWith("1000 samples in 6 bins"), text(browser, "#histogram-message"));
                assertNotEquals("0", attribute(browser, "#timeline", "data-points"));

                // A profile without histograms says why, instead of drawing nothing silently.
                click(browser, "tr[data-index-ref='1']");
                wait.until(b -> text(b, "#histogram-message").contains("no latency histograms"));

                click(browser, "tr[data-index-ref='4']");
                wait.until(b -> !"0".equals(attribute(b, "#histogram", "data-bins")));
                final Path screenshot = browser.getScreenshotAs(OutputType.FILE).toPath();
                final Path target = Path.of("target/console.png");
                Files.copy(screenshot, target, StandardCopyOption.REPLACE_EXISTING);
                assertTrue(Files.size(target) > 10_000, "a screenshot with content");
            } finally {
                browser.quit();
            }
        }
    }

    // The page re-renders its table on every pushed snapshot, so an element found a moment ago may
    // be gone: reads go through one script call (atomic in the page), clicks are retried.

    private static String estimateOf(final org.openqa.selenium.WebDriver browser, final int indexRef) {
        return text(browser, "tr[data-index-ref='" + indexRef + "'] td.estimate");
    }

    private static String text(final org.openqa.selenium.WebDriver browser, final String css) {
        final Object text = ((JavascriptExecutor) browser).executeScript(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css);
        return String.valueOf(text);
    }

    private static String attribute(final org.openqa.selenium.WebDriver browser, final String css, final String name) {
        final Object value = ((JavascriptExecutor) browser).executeScript(
            "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;", css, name);
        return value == null ? "0" : String.valueOf(value);
    }

    private static void click(final org.openqa.selenium.WebDriver browser, final String css) {
        for (int attempt = 0; ; attempt++) {
            try {
                browser.findElement(By.cssSelector(css)).click();
                return;
            } catch (org.openqa.selenium.StaleElementReferenceException e) {
                if (attempt == 5) {
                    throw e;
                }
            }
        }
    }

    private ChromeDriver browser() throws Exception {
        final ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
            "--window-size=1366,768", "--user-data-dir=" + Files.createDirectories(directory.resolve("chromium-profile")));
        final ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }
}
