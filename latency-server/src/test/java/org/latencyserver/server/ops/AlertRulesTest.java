package org.latencyserver.server.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shipped alert rules ({@code ops/prometheus/latency-server-alerts.yml}) as Prometheus's own
 * {@code promtool} sees them: they parse, their unit tests ({@code latency-server-alerts.test.yml})
 * pass, the example scrape configuration is valid, every alert is unit-tested and its runbook link
 * names a heading of the operator guide.
 */
class AlertRulesTest {

    /** Debian's package {@code prometheus} ships it. */
    static final Path PROMTOOL = Path.of("/usr/bin/promtool");
    private static final Path OPS = Path.of("../ops/prometheus").toAbsolutePath().normalize();
    private static final Path RULES = OPS.resolve("latency-server-alerts.yml");

    @BeforeAll
    static void promtoolIsInstalled() {
        assertTrue(Files.isExecutable(PROMTOOL), PROMTOOL + " is missing: install the Debian package 'prometheus', which ships it"
            + " (sudo apt-get install -y prometheus; .ci/run installs it)");
    }

    @Test
    void promtoolAcceptsTheRules() throws Exception {
        final String output = promtool("check", "rules", RULES.toString());
        assertTrue(output.contains("SUCCESS: " + alertNames().size() + " rules found"), output);
    }

    @Test
    void theRulesPassTheirUnitTests() throws Exception {
        final String output = promtool("test", "rules", OPS.resolve("latency-server-alerts.test.yml").toString());
        assertTrue(output.contains("SUCCESS"), output);
        assertFalse(output.contains("FAILED"), output);
    }

    @Test
    void theExampleScrapeConfigurationIsValidAndLoadsTheRules() throws Exception {
        final Path config = OPS.resolve("prometheus.yml");
        final String output = promtool("check", "config", config.toString());
        assertTrue(output.contains("SUCCESS: 1 rule files found"), output);
        final JsonNode root = new YAMLMapper().readTree(config.toFile());
        assertEquals("latency-server-alerts.yml", root.get("rule_files").get(0).asText());
        assertEquals("latency-server", root.get("scrape_configs").get(0).get("job_name").asText());
    }

    @Test
    void everyAlertIsUnitTestedBothWays() throws Exception {
        final JsonNode tests = new YAMLMapper().readTree(OPS.resolve("latency-server-alerts.test.yml").toFile()).get("tests");
        final Set<String> firing = new TreeSet<>();
        final Set<String> silent = new TreeSet<>();
        for (final JsonNode test : tests) {
            for (final JsonNode check : test.path("alert_rule_test")) {
                (check.path("exp_alerts").isEmpty() ? silent : firing).add(check.get("alertname").asText());
            }
        }
        assertEquals(alertNames(), firing, "alerts with a test where they fire");
        assertEquals(alertNames(), silent, "alerts with a test where they do not");
    }

    @Test
    void everyAlertHasASeverityASummaryAndARunbookSectionInTheOperatorGuide() throws Exception {
        final String guide = Files.readString(Path.of("../docs/operator-guide.md"));
        final int alerts = guide.indexOf("\n## Alerts\n");
        assertTrue(alerts > 0 && guide.indexOf("\n## Metrics\n") < alerts, "the guide has '## Alerts' after '## Metrics'");
        final List<String> missing = new ArrayList<>();
        for (final JsonNode rule : rules()) {
            final String name = rule.get("alert").asText();
            final JsonNode annotations = rule.get("annotations");
            final String runbook = annotations.path("runbook_url").asText();
            final String anchor = name.toLowerCase(Locale.ROOT);
            if (!runbook.equals("docs/operator-guide.md#" + anchor) || !guide.substring(alerts).contains("\n### " + name + "\n")) {
                missing.add(name + ": runbook_url '" + runbook + "', and a heading '### " + name + "' under Alerts");
            }
            if (!Set.of("critical", "warning").contains(rule.path("labels").path("severity").asText())
                || annotations.path("summary").asText().isBlank() || annotations.path("description").asText().isBlank()) {
                missing.add(name + ": severity, summary and description");
            }
        }
        assertTrue(missing.isEmpty(), String.join("\n", missing));
    }

    static Set<String> alertNames() throws IOException {
        final Set<String> names = new TreeSet<>();
        rules().forEach(rule -> names.add(rule.get("alert").asText()));
        return names;
    }

    private static List<JsonNode> rules() throws IOException {
        final List<JsonNode> rules = new ArrayList<>();
        new YAMLMapper().readTree(RULES.toFile()).get("groups").forEach(group -> group.get("rules").forEach(rules::add));
        return rules;
    }

    /** Runs promtool in the rule files' directory; asserts exit 0 and returns its output (stdout and stderr). */
    private static String promtool(final String... arguments) throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>(List.of(PROMTOOL.toString()));
        command.addAll(List.of(arguments));
        final Process process = new ProcessBuilder(command).directory(OPS.toFile()).redirectErrorStream(true).start();
        final byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        final String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), () -> String.join(" ", command) + ":\n" + text);
        return text;
    }
}
