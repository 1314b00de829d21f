package org.latencyserver.systemtests.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.Calibration;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.ProfileCellDrift;
import org.latencyserver.idl.latency.StateCalibration;
import org.latencyserver.systemtests.kit.HeadlessChromium;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console's web page in a real headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}, installed by {@code .ci/run}), against a real server: it lists the
 * connections, an estimate changes on the page without a reload when a state changes, a
 * connection's histogram renders, the estimate cell says where a served value comes from (profile
 * fallback, previous state's value, remembered) and what the thesis would have served, and the
 * per-state calibration table shows what {@code calibration(index_ref)} returns, and the panel of
 * profiles learned from live probes shows what {@code profile_drift()} returns. It also writes the
 * screenshot the README shows.
 */
class ConsoleInBrowserTest {

    /** cpu_state codes (10 × client + peer; LOW 1, HIGH 3) and port NORMAL. */
    private static final int LOW_LOW = 11;
    private static final int HIGH_LOW = 31;
    private static final int NORMAL = 0;
    /** The adaptive QoS 4 connection ConsoleTestbed adds; lab1 is its client. */
    private static final int ADAPTIVE = 7;
    /** A QoS 4 connection of the thesis testbed, with the thesis's semantics. */
    private static final int THESIS_BOUND = 6;
    /** The probed QoS 2 connection ConsoleTestbed adds: its probe windows feed its profile's cells. */
    private static final int PROFILED = 8;

    @TempDir
    Path directory;

    @Test
    void thePageFollowsStatesLiveDrawsAHistogramAndShowsSourcesAndCalibrationPerState() throws Exception {
        try (ConsoleTestbed testbed = new ConsoleTestbed(directory)) {
            testbed.push(10, 10, 50);
            final String url = testbed.webConsole("web", "--http-port", "0", "--refresh-millis", "5000");

            final ChromeDriver browser = HeadlessChromium.start(directory);
            try {
                browser.get(url);
                final WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
                wait.until(b -> b.findElements(By.cssSelector("#connections tbody tr")).size() == 8);
                assertEquals(List.of("1", "2", "3", "4", "5", "6", "7", "8"), ((JavascriptExecutor) browser).executeScript(
                    "return [...document.querySelectorAll('#connections tbody tr')].map(r => r.dataset.indexRef);"));
                // No probe has reached a profile cell yet: the panel says so in one line, without a table.
                assertEquals("No profile cell has been reached by probes yet.", text(browser, "#profile-drift-message"));
                assertEquals(Boolean.TRUE, ((JavascriptExecutor) browser).executeScript(
                    "return document.getElementById('profile-drift').hidden;"));
                assertTrue(text(browser, "#profile-cells .caption").contains(
                    "./latency profile learned PROFILE --server REF --out FILE"), text(browser, "#profile-cells .caption"));
                assertTrue(text(browser, "tr[data-index-ref='3'] td.nodes").endsWith("LOCAL-2CORE → LOCAL-2CORE"),
                    "a configured workstation type by its name: " + text(browser, "tr[data-index-ref='3'] td.nodes"));
                assertTrue(text(browser, "tr[data-index-ref='1'] td.nodes").endsWith("TAC-4 → TAC-4"));
                final String before = estimateOf(browser, 1);
                assertTrue(before.startsWith("1.365 ms"), "thesis Appendix A, TAC-4 256 B LOW/LOW: " + before);

                // The pair view: client workstations × peer workstations, one cell per connection in its pair.
                wait.until(b -> pairCells(b).size() == 8);
                final Map<Integer, Map<String, String>> cells = pairCells(browser);
                assertEquals(Map.of(1, "ws1→ws2", 2, "ws3→ws4", 3, "lab1→lab2", 4, "ws1→ws2", 5, "ws3→ws4", 6, "ws1→ws2",
                    7, "lab1→lab2", 8, "lab1→lab2"), pairsOf(cells), "each connection in its pair's cell");
                assertEquals(List.of(List.of("ws1", "ws3", "lab1"), List.of("ws2", "ws4", "lab2")), ((JavascriptExecutor) browser)
                    .executeScript("return [[...document.querySelectorAll('#pair-matrix tbody th')].map(t => t.dataset.client),"
                        + "[...document.querySelectorAll('#pair-matrix thead th[data-peer]')].map(t => t.dataset.peer)];"),
                    "rows are the clients, columns the peers, in the order of the connections");
                assertEquals(6, ((Number) ((JavascriptExecutor) browser).executeScript(
                    "return document.querySelectorAll('#pair-matrix td.empty').length;")).intValue(), "three pairs of nine are connected");
                // Nothing clicked yet: the detail pane already shows the first connection, its row selected.
                wait.until(b -> text(b, "#detail-title").startsWith("Connection 1: ws1 → ws2"));
                assertEquals("selected", attribute(browser, "tr[data-index-ref='1']", "class"), "the first row is selected from the start");
                final Map<String, String> first = cells.get(1);
                assertEquals("estimate", first.get("state"));
                assertEquals(1.365, Double.parseDouble(first.get("value")), 1e-9);
                assertTrue(first.get("label").contains("served 1.365 ms mean"), "the served value in the label: " + first.get("label"));
                assertEquals(first.get("label"), first.get("title"), "the hover text says what the label says");
                // Not measured yet: greyed, with the server's reason on hover.
                final Map<String, String> unmeasured = cells.get(4);
                assertEquals("none", unmeasured.get("state"));
                assertTrue(unmeasured.get("class").contains("greyed"), unmeasured.get("class"));
                assertEquals("", unmeasured.get("colour"), "no colour of the scale without an estimate");
                final String reason = attribute(browser, "tr[data-index-ref='4'] td.estimate", "title");
                assertTrue(!reason.isEmpty() && unmeasured.get("label").contains("no estimate: " + reason), unmeasured.get("label"));
                assertScaleFollowsValues(browser);
                final String colourBefore = first.get("colour");
                assertTrue(text(browser, "tr[data-index-ref='1'] td.calibration").contains("thesis"),
                    "a thesis-mode connection says so: " + text(browser, "tr[data-index-ref='1'] td.calibration"));

                // The adaptive connection has never been measured in LOW/LOW: its profile's cell, labelled.
                wait.until(b -> estimateOf(b, ADAPTIVE).contains("profile fallback"));
                assertEquals("elsewhere", attribute(browser, "tr[data-index-ref='7'] td.estimate .source", "class").replace("source ", ""),
                    "a value that is not the state's own is marked");
                testbed.measure(ADAPTIVE); // opened once LOW/LOW held for the dwell
                testbed.measure(THESIS_BOUND);
                // Measured: its own value, read as the adaptive correction reads it, the thesis's beside it.
                awaitThesisValueShown(wait, testbed, browser, ADAPTIVE);

                // A marker in the page's own JavaScript state: a reload would lose it.
                ((JavascriptExecutor) browser).executeScript("window.__notReloaded = true;");
                testbed.push(80, 10, 50); // HIGH/LOW: pushed to the console, which refreshes at once
                wait.until(b -> !estimateOf(b, 1).equals(before));
                assertTrue(estimateOf(browser, 1).startsWith("2.386 ms"), "HIGH/LOW reads the 0-33/67-100 cell: " + estimateOf(browser, 1));
                // The pair view follows: the cell's value, label and place on the colour scale.
                wait.until(b -> "2.386".equals(pairCells(b).get(1).get("value")));
                final Map<Integer, Map<String, String>> after = pairCells(browser);
                assertTrue(after.get(1).get("label").contains("served 2.386 ms mean")
                    && after.get(1).get("label").contains("load state HIGH/LOW"), after.get(1).get("label"));
                assertNotEquals(colourBefore, after.get(1).get("colour"), "the cell's colour follows its estimate");
                assertScaleFollowsValues(browser);
                assertEquals(Boolean.TRUE, ((JavascriptExecutor) browser).executeScript("return window.__notReloaded === true;"),
                    "the page changed without a reload");
                assertTrue(text(browser, "tr[data-index-ref='1'] td.cpu-state").startsWith("HIGH/LOW"));
                // Thesis semantics: LOW/LOW's measurement is still served in HIGH/LOW, and the page says so.
                wait.until(b -> estimateOf(b, THESIS_BOUND).contains("previous state's value"));
                assertTrue(text(browser, "tr[data-index-ref='6'] td.status").contains("load state changed to"),
                    "the pending measurement's reason: " + text(browser, "tr[data-index-ref='6'] td.status"));
                wait.until(b -> estimateOf(b, ADAPTIVE).contains("profile fallback"));

                // A measured connection: its histogram renders when the row is clicked.
                testbed.measure(4);
                wait.until(b -> !estimateOf(b, 4).startsWith("none"));
                // Clicked in the pair view: the same detail panel a click on its row opens.
                wait.until(b -> "estimate".equals(pairCells(b).get(4).get("state")));
                click(browser, "#pair-matrix .pair-cell[data-index-ref='4']");
                wait.until(b -> text(b, "#detail-title").startsWith("Connection 4: ws1 → ws2, 256 B"));
                assertEquals("selected", attribute(browser, "tr[data-index-ref='4']", "class"), "its row is selected too");
                assertTrue(pairCells(browser).get(4).get("class").contains("selected"), pairCells(browser).get(4).get("class"));
                wait.until(b -> !"0".equals(attribute(b, "#histogram", "data-bins")));
                assertEquals("6", attribute(browser, "#histogram", "data-bins"), "the six bins the agent submitted");
                assertTrue(text(browser, "#histogram-message").startsWith("1000 samples in 6 bins"), text(browser, "#histogram-message"));
                assertNotEquals("0", attribute(browser, "#timeline", "data-points"));

                // A profile without histograms says why, instead of drawing nothing silently.
                click(browser, "tr[data-index-ref='1']");
                wait.until(b -> text(b, "#histogram-message").contains("no latency histograms"));

                // HIGH/LOW measured, then a probe window of its client agent in which every round trip
                // missed the served bound: the correction raises its level, and the drift test re-measures.
                testbed.measure(ADAPTIVE);
                testbed.probe(ADAPTIVE, "lab1", 100, 10_000_000);
                wait.until(b -> text(b, "tr[data-index-ref='7'] td.status").contains("drift:"));
                final Estimate corrected = awaitThesisValueShown(wait, testbed, browser, ADAPTIVE);
                assertTrue(corrected.value_ms > corrected.thesis_value_ms,
                    "misses raise the served bound above the thesis's: " + corrected.value_ms + " vs " + corrected.thesis_value_ms);

                // Back to LOW/LOW: its last measurement is served at once, labelled with its age.
                testbed.push(10, 10, 50);
                wait.until(b -> estimateOf(b, ADAPTIVE).matches("(?s).*remembered, \\d+ s old.*"));
                // A probe window that misses LOW/LOW's served bound entirely: two blocks, both without a
                // hit, so LOW/LOW's coverage interval is [0, 0], wholly below 94.5 %: not holding.
                testbed.probe(ADAPTIVE, "lab1", 100, 10_000_000);

                click(browser, "tr[data-index-ref='7']");
                final Calibration calibration = testbed.service.calibration((short) ADAPTIVE);
                assertEquals("adaptive", calibration.mode);
                final StateCalibration lowLow = state(calibration, LOW_LOW);
                final StateCalibration highLow = state(calibration, HIGH_LOW);
                assertEquals(1, lowLow.measurements, "LOW/LOW measured once");
                assertEquals(1, highLow.measurements, "HIGH/LOW measured once");
                assertEquals(1100, lowLow.round_trips_checked, "LOW/LOW's measurement tested the profile fallback, then the probe window");
                assertTrue(notHolding(lowLow), "no round trip of LOW/LOW at or below its bounds: " + lowLow.coverage_interval.upper);
                assertEquals(1100, highLow.round_trips_checked, "HIGH/LOW's measurement and the probe window");
                assertEquals(1, highLow.drift_alarms, "the probe window's misses raised one alarm");
                for (final StateCalibration state : calibration.states) {
                    awaitRow(wait, browser, expectedRow(state, state.cpu_state == LOW_LOW), state.load_state);
                }
                awaitRow(wait, browser, expectedRow(calibration.pooled, false), calibration.pooled.load_state);
                assertEquals(calibration.states.length, rowCount(browser), "one row per load state in the table");

                // In the pair view the adaptive connection's cell is marked: its bound is not holding in the load state now.
                final String coverage = String.format(Locale.ROOT, "coverage %.1f %% of 96 %% in %s, the load state now: not holding",
                    100 * lowLow.coverage, lowLow.load_state);
                try {
                    wait.until(b -> "true".equals(pairCells(b).get(ADAPTIVE).get("notHolding"))
                        && pairCells(b).get(ADAPTIVE).get("label").contains(coverage));
                } catch (org.openqa.selenium.TimeoutException e) {
                    assertEquals(coverage, pairCells(browser).get(ADAPTIVE).get("label"), "the adaptive connection's cell");
                }
                assertTrue(pairCells(browser).get(ADAPTIVE).get("class").contains("not-holding"));
                assertEquals("false", pairCells(browser).get(1).get("notHolding"), "a mean has no bound to hold");

                // The calibration column: pooled coverage against nominal, marked when its interval is wholly below.
                final String column = text(browser, "tr[data-index-ref='7'] td.calibration");
                assertTrue(column.startsWith(String.format(Locale.ROOT, "%.1f %% of 96 %%", 100 * calibration.pooled.coverage)), column);
                assertTrue(column.contains("adaptive, read at"), column);
                assertEquals(notHolding(calibration.pooled) ? "figures coverage not-holding" : "figures coverage",
                    attribute(browser, "tr[data-index-ref='7'] td.calibration .figures", "class"),
                    "interval " + calibration.pooled.coverage_interval.lower + ".." + calibration.pooled.coverage_interval.upper);

                // Probe windows of the QoS 2 connection 8 in LOW/LOW, 300 round trips all at three times its
                // profile cell's mean: the cell is learned and drifting, and the panel shows the server's test.
                final double cellMean = ConsoleTestbed.profileCellMeanMillis("0-33", "0-33", 256);
                testbed.probeAt(PROFILED, "lab1", LOW_LOW, 3, 100, Math.round(3 * cellMean * 1e6));
                final ProfileCellDrift[] drift = testbed.service.profile_drift();
                assertEquals(1, drift.length, "one profile cell reached, by connection 8's probes");
                final ProfileCellDrift cell = drift[0];
                assertEquals(ConsoleTestbed.PROFILE, cell.profile_name);
                assertEquals(LOW_LOW, cell.cpu_state);
                assertEquals(256, cell.message_size_bytes);
                assertEquals(300, cell.live_round_trips, "every round trip of the three windows");
                assertTrue(cell.drifting, "three times the profile's mean: " + cell.statistic + " vs " + cell.critical_value);
                final Map<String, String> expectedCell = new HashMap<>(Map.of("profile", ConsoleTestbed.PROFILE, "cpu", "LOW/LOW",
                    "size", "256 B", "round-trips", "300",
                    "live-mean", String.format(Locale.ROOT, "%.3f ms", cell.live_mean_ms),
                    "profile-mean", String.format(Locale.ROOT, "%.3f ms", cell.profile_mean_ms),
                    "statistic", String.format(Locale.ROOT, "%.3f vs %.3f", cell.statistic, cell.critical_value),
                    "verdict", "DRIFTING", "verdict-class", "verdict drifting", "statistic-title", cell.test));
                try {
                    wait.until(b -> expectedCell.equals(profileCellRow(b)));
                } catch (org.openqa.selenium.TimeoutException e) {
                    assertEquals(expectedCell, profileCellRow(browser), "the panel's row of the learned cell");
                }
                assertTrue(attribute(browser, "#profile-drift td.verdict", "title").contains(cell.test),
                    "the test's name on hover: " + attribute(browser, "#profile-drift td.verdict", "title"));
                assertEquals("", text(browser, "#profile-drift-message"));
                ((JavascriptExecutor) browser).executeScript("document.querySelector('#profile-cells').scrollIntoView();");
                screenshot(browser, "target/console-profile-drift.png");

                // The per-state table in view, for the operator guide.
                ((JavascriptExecutor) browser).executeScript("document.querySelector('#calibration-states').scrollIntoView();");
                screenshot(browser, "target/console-calibration.png");

                click(browser, "tr[data-index-ref='4']");
                wait.until(b -> !"0".equals(attribute(b, "#histogram", "data-bins")));
                // The table in view (the pair view above it has its own screenshot).
                ((JavascriptExecutor) browser).executeScript("document.querySelector('#connections').scrollIntoView();");
                screenshot(browser, "target/console.png");

                // The pair view alone, for the operator guide.
                final Path pairView = browser.findElement(By.id("pairs")).getScreenshotAs(OutputType.FILE).toPath();
                Files.copy(pairView, Path.of("target/console-pair-view.png"), StandardCopyOption.REPLACE_EXISTING);
                assertTrue(Files.size(Path.of("target/console-pair-view.png")) > 5_000, "a screenshot with content");
            } finally {
                browser.quit();
            }
        }
    }

    private static void screenshot(final ChromeDriver browser, final String file) throws java.io.IOException {
        final Path screenshot = browser.getScreenshotAs(OutputType.FILE).toPath();
        final Path target = Path.of(file);
        Files.copy(screenshot, target, StandardCopyOption.REPLACE_EXISTING);
        assertTrue(Files.size(target) > 10_000, "a screenshot with content");
    }

    /**
     * Waits until the connection's estimate cell shows the served value and, beside it, the thesis's
     * value with the correction on hover, as {@code current_estimate} returns them.
     */
    private static Estimate awaitThesisValueShown(final WebDriverWait wait, final ConsoleTestbed testbed, final WebDriver browser,
                                                  final int indexRef) {
        final Estimate[] served = new Estimate[1];
        wait.until(b -> {
            try {
                served[0] = testbed.service.current_estimate((short) indexRef);
            } catch (Exception e) {
                return false;
            }
            final String cell = estimateOf(b, indexRef);
            return !served[0].correction.isEmpty()
                && cell.startsWith(String.format(Locale.ROOT, "%.3f ms", served[0].value_ms))
                && cell.contains(String.format(Locale.ROOT, "thesis %.3f ms", served[0].thesis_value_ms))
                && served[0].correction.equals(attribute(b, "tr[data-index-ref='" + indexRef + "'] td.estimate .thesis", "title"));
        });
        return served[0];
    }

    private static StateCalibration state(final Calibration calibration, final int cpuState) {
        for (final StateCalibration state : calibration.states) {
            if (state.cpu_state == cpuState && state.port_state == NORMAL) {
                return state;
            }
        }
        throw new AssertionError("no calibration of cpu_state " + cpuState + " among " + calibration.states.length + " states");
    }

    /** Waits until the page's row of the load state shows what is expected; if it never does, says how it differs. */
    private static void awaitRow(final WebDriverWait wait, final WebDriver browser, final Map<String, String> expected,
                                 final String loadState) {
        try {
            wait.until(b -> expected.equals(stateRow(b, loadState)));
        } catch (org.openqa.selenium.TimeoutException e) {
            assertEquals(expected, stateRow(browser, loadState), "the calibration table's row of " + loadState);
        }
    }

    /** Whether the coverage interval lies wholly below nominal − 1.5 points (computed over at least two blocks). */
    private static boolean notHolding(final StateCalibration s) {
        return !s.coverage_interval.method.startsWith("none") && s.coverage_interval.upper < s.nominal - 0.015;
    }

    /** A bound's row of the per-state table as the page should show it, from the IDL's figures. */
    private static Map<String, String> expectedRow(final StateCalibration s, final boolean current) {
        final Map<String, String> row = new HashMap<>();
        final boolean pooled = s.cpu_state < 0;
        row.put("state", s.load_state + (current ? " now" : ""));
        row.put("checked", Long.toString(s.round_trips_checked));
        final boolean interval = !s.coverage_interval.method.startsWith("none");
        row.put("coverage", (s.round_trips_checked == 0 ? "–" : String.format(Locale.ROOT, "%.1f %%", 100 * s.coverage)
            + (interval ? String.format(Locale.ROOT, " (%.1f %% – %.1f %%)", 100 * s.coverage_interval.lower,
            100 * s.coverage_interval.upper) : "")) + (s.coverage_below_nominal ? " BELOW NOMINAL" : ""));
        row.put("coverage-class", notHolding(s) ? "coverage not-holding" : "coverage");
        row.put("nominal", "96 %");
        row.put("level", !pooled && s.served_level_percent > 0 ? String.format(Locale.ROOT, "%.2f %%", s.served_level_percent) : "–");
        row.put("measurements", Long.toString(s.measurements));
        row.put("last-measured", s.last_measured_epoch_millis == 0 ? "never" : "measured");
        row.put("drift", Long.toString(s.drift_alarms));
        return row;
    }

    /** The per-state table's row of a load state, cell by cell (the time of the last measurement only as "measured"). */
    @SuppressWarnings("unchecked")
    private static Map<String, String> stateRow(final WebDriver browser, final String loadState) {
        final Object cells = ((JavascriptExecutor) browser).executeScript(
            "const tr = [...document.querySelectorAll('#calibration-states tr[data-load-state]')]"
                + ".find(t => t.dataset.loadState === arguments[0]);"
                + "if (!tr) return null; const o = {};"
                + "for (const td of tr.cells) o[td.className.split(' ')[0]] = td.innerText.replace(/\\s+/g, ' ').trim();"
                + "if (o['last-measured'] !== 'never') o['last-measured'] = 'measured';"
                + "o['coverage-class'] = tr.querySelector('td.coverage').className;"
                + "return o;", loadState);
        return cells == null ? Map.of() : new HashMap<>((Map<String, String>) cells);
    }

    /**
     * The profile panel's one row, cell by cell (the live mean without its ratio to the profile's), its
     * verdict's class and the statistic's hover text.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, String> profileCellRow(final WebDriver browser) {
        final Object cells = ((JavascriptExecutor) browser).executeScript(
            "const rows = document.querySelectorAll('#profile-drift tbody tr');"
                + "if (rows.length !== 1 || document.getElementById('profile-drift').hidden) return null;"
                + "const tr = rows[0], o = {};"
                + "for (const td of tr.cells) o[td.className.split(' ')[0]] = td.innerText.replace(/\\s+/g, ' ').trim();"
                + "o['live-mean'] = o['live-mean'].replace(/ ×.*$/, '');"
                + "delete o['last-probe'];"
                + "o['verdict-class'] = tr.querySelector('td.verdict').className;"
                + "o['statistic-title'] = tr.querySelector('td.statistic').title;"
                + "return o;");
        return cells == null ? Map.of() : new HashMap<>((Map<String, String>) cells);
    }

    /**
     * The pair view's cells by connection, each as one map (read in one script call): its pair, state, served
     * value, place on the colour scale, colour, bound verdict, classes, label and hover text.
     */
    private static Map<Integer, Map<String, String>> pairCells(final WebDriver browser) {
        return byRef(((JavascriptExecutor) browser).executeScript("return " + PAIR_CELLS + ";"));
    }

    /** A script expression: the pair view's cells, each as an object of strings. */
    private static final String PAIR_CELLS = "[...document.querySelectorAll('#pair-matrix .pair-cell')].map(c => {"
        + " const td = c.closest('td');"
        + " return {ref: c.dataset.indexRef, pair: td.dataset.client + '→' + td.dataset.peer, state: c.dataset.state,"
        + " value: c.dataset.value, position: c.dataset.position, colour: c.dataset.colour,"
        + " notHolding: c.dataset.notHolding, 'class': c.className, label: c.getAttribute('aria-label'), title: c.title}; })";

    @SuppressWarnings("unchecked")
    private static Map<Integer, Map<String, String>> byRef(final Object cells) {
        final Map<Integer, Map<String, String>> byRef = new java.util.TreeMap<>();
        for (final Map<String, String> cell : (List<Map<String, String>>) cells) {
            byRef.put(Integer.valueOf(cell.get("ref")), new HashMap<>(cell));
        }
        return byRef;
    }

    private static Map<Integer, String> pairsOf(final Map<Integer, Map<String, String>> cells) {
        final Map<Integer, String> pairs = new HashMap<>();
        cells.forEach((ref, cell) -> pairs.put(ref, cell.get("pair")));
        return pairs;
    }

    /**
     * The colour scale spans the fresh served values on a log axis: each coloured cell sits where its value
     * puts it between the shortest (0) and the longest (1), the legend names both, and cells of different
     * values have different colours.
     */
    @SuppressWarnings("unchecked")
    private static void assertScaleFollowsValues(final WebDriver browser) {
        // Cells and legend in one script call: the page renders both from the same snapshot, between calls.
        final Map<String, Object> read = (Map<String, Object>) ((JavascriptExecutor) browser).executeScript(
            "const l = document.getElementById('pair-legend');"
                + "return {cells: " + PAIR_CELLS + ", min: l.dataset.min, max: l.dataset.max, svg: l.querySelector('svg') !== null};");
        final Map<Integer, Map<String, String>> cells = byRef(read.get("cells"));
        double min = Double.MAX_VALUE;
        double max = 0;
        for (final Map<String, String> cell : cells.values()) {
            if ("estimate".equals(cell.get("state"))) {
                min = Math.min(min, Double.parseDouble(cell.get("value")));
                max = Math.max(max, Double.parseDouble(cell.get("value")));
            }
        }
        assertTrue(max > min, "estimates of different values: " + min + ", " + max);
        final Map<String, java.util.Set<String>> coloursByValue = new HashMap<>();
        for (final Map.Entry<Integer, Map<String, String>> entry : cells.entrySet()) {
            final Map<String, String> cell = entry.getValue();
            if (!"estimate".equals(cell.get("state"))) {
                continue;
            }
            final double value = Double.parseDouble(cell.get("value"));
            final double expected = (Math.log(value) - Math.log(min)) / (Math.log(max) - Math.log(min));
            assertEquals(expected, Double.parseDouble(cell.get("position")), 1e-3, "connection " + entry.getKey() + "'s place on the scale");
            assertTrue(cell.get("class").contains("pair-cell") && !cell.get("class").contains("greyed"), cell.get("class"));
            coloursByValue.computeIfAbsent(cell.get("value"), v -> new java.util.HashSet<>()).add(cell.get("colour"));
        }
        final java.util.Set<String> distinct = new java.util.HashSet<>();
        coloursByValue.values().forEach(colours -> {
            assertEquals(1, colours.size(), "one colour per value: " + coloursByValue);
            distinct.addAll(colours);
        });
        assertEquals(coloursByValue.size(), distinct.size(), "a colour per value: " + coloursByValue);
        assertEquals(min, Double.parseDouble((String) read.get("min")), 0, "the legend's shortest");
        assertEquals(max, Double.parseDouble((String) read.get("max")), 0, "the legend's longest");
        assertEquals(Boolean.TRUE, read.get("svg"), "the legend draws the scale");
    }

    private static long rowCount(final WebDriver browser) {
        final Object count = ((JavascriptExecutor) browser).executeScript(
            "return document.querySelectorAll('#calibration-states tbody tr[data-load-state]').length;");
        assertNotNull(count);
        return ((Number) count).longValue();
    }

    // The page re-renders its table on every pushed snapshot, so an element found a moment ago may
    // be gone: reads go through one script call (atomic in the page), clicks are retried.

    private static String estimateOf(final WebDriver browser, final int indexRef) {
        return text(browser, "tr[data-index-ref='" + indexRef + "'] td.estimate");
    }

    private static String text(final WebDriver browser, final String css) {
        final Object text = ((JavascriptExecutor) browser).executeScript(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css);
        return String.valueOf(text);
    }

    private static String attribute(final WebDriver browser, final String css, final String name) {
        final Object value = ((JavascriptExecutor) browser).executeScript(
            "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;", css, name);
        return value == null ? "0" : String.valueOf(value);
    }

    private static void click(final WebDriver browser, final String css) {
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
}
