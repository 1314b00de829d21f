package org.latencyserver.server.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Grafana dashboard in ops/grafana: valid against Grafana's published dashboard schema (and the schemas of the
 * panel plugins and the Prometheus query it uses, ops/grafana/schema/README.md says where they come from), and
 * true to what the schema cannot say: only metric names of ops/metrics-contract.md, every query through the
 * datasource variable, unique panel ids, a layout without overlaps, a Grafana unit on every panel.
 */
class GrafanaDashboardTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path GRAFANA = REPO.resolve("ops/grafana");
    private static final Path DASHBOARD = GRAFANA.resolve("latency-server-dashboard.json");
    private static final Path SCHEMAS = GRAFANA.resolve("schema");
    private static final Path CONTRACT = REPO.resolve("ops/metrics-contract.md");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchemaFactory DRAFT_07 = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7);

    private static final String DATASOURCE_UID = "${datasource}";
    private static final Pattern METRIC = Pattern.compile("latency_server_[a-z_]+");
    private static final Pattern SELECTOR = Pattern.compile("(latency_server_[a-z_]+)(\\{[^}]*})?");
    private static final Pattern CONTRACT_SERIES = Pattern.compile("`(latency_server_[a-z_]+)(?:\\{([a-z_,]*)})?`");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)");
    private static final Set<String> GRAFANA_BUILTINS = Set.of(
        "__rate_interval", "__interval", "__interval_ms", "__range", "__range_s", "__range_ms");
    private static final int GRID_COLUMNS = 24;

    // ---------------------------------------------------------------- Grafana's schemas

    /** One check of a dashboard: the problems it finds, none for a good dashboard. */
    @FunctionalInterface
    private interface DashboardCheck {
        List<String> problems(JsonNode dashboard) throws IOException;
    }

    /** The checks that need nothing but the dashboard: Grafana's schemas and the own ones below. */
    static Stream<Named<DashboardCheck>> checksOfTheDashboardAlone() {
        return Stream.of(
            Named.of("the dashboard conforms to Grafana's dashboard schema", GrafanaDashboardTest::schemaProblems),
            Named.of("panel options, field config and queries conform to the plugin schemas",
                GrafanaDashboardTest::pluginSchemaProblems),
            Named.of("every panel query and variable goes through the datasource variable",
                GrafanaDashboardTest::datasourceProblems),
            Named.of("panel ids are unique and the layout has no overlaps", GrafanaDashboardTest::layoutProblems),
            Named.of("every panel shows a Grafana unit that fits its series", GrafanaDashboardTest::unitProblems));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("checksOfTheDashboardAlone")
    void theShippedDashboardPassesEachCheckOfItAlone(final DashboardCheck check) throws Exception {
        assertEquals(List.of(), check.problems(dashboard()));
    }

    @Test
    void schemasRejectWhatGrafanaWouldNotLoad() throws Exception {
        final Map<String, Consumer<ObjectNode>> faults = new LinkedHashMap<>();
        faults.put("panel wider than the grid", d -> gridPos(d, 0).put("w", 25));
        faults.put("panel without a type", d -> panel(d, 0).remove("type"));
        faults.put("schemaVersion as text", d -> d.put("schemaVersion", "39"));
        faults.put("the HTTP API's wrapper instead of the dashboard", d -> d.putObject("dashboard"));
        faults.put("unknown variable type", d -> ((ObjectNode) d.path("templating").path("list").get(0)).put("type", "prometheus"));
        faults.put("no templating", d -> d.remove("templating"));
        for (final Map.Entry<String, Consumer<ObjectNode>> fault : faults.entrySet()) {
            assertFalse(schemaProblems(mutated(fault.getValue())).isEmpty(), fault.getKey() + ": the dashboard schema accepted it");
        }
        final Map<String, Consumer<ObjectNode>> pluginFaults = new LinkedHashMap<>();
        pluginFaults.put("query without refId", d -> ((ObjectNode) panel(d, 0).path("targets").get(0)).remove("refId"));
        pluginFaults.put("query with an unknown field", d -> ((ObjectNode) panel(d, 0).path("targets").get(0)).put("exprr", "up"));
        pluginFaults.put("stat without reduceOptions", d -> ((ObjectNode) panelOfType(d, "stat").path("options")).remove("reduceOptions"));
        pluginFaults.put("time series legend without placement",
            d -> ((ObjectNode) panelOfType(d, "timeseries").path("options").path("legend")).remove("placement"));
        pluginFaults.put("unknown line interpolation",
            d -> ((ObjectNode) panelOfType(d, "timeseries").path("fieldConfig").path("defaults").path("custom"))
                .put("lineInterpolation", "bezier"));
        pluginFaults.put("panel type without a schema here", d -> panelOfType(d, "table").put("type", "piechart"));
        for (final Map.Entry<String, Consumer<ObjectNode>> fault : pluginFaults.entrySet()) {
            assertFalse(pluginSchemaProblems(mutated(fault.getValue())).isEmpty(), fault.getKey() + ": the plugin schemas accepted it");
        }
    }

    @Test
    void schemaFilesAreTheCopiesTheReadmeRecords() throws Exception {
        final String readme = Files.readString(SCHEMAS.resolve("README.md"));
        final Map<String, String> recorded = new HashMap<>();
        final Matcher m = Pattern.compile("^\\|\\s*`([a-z0-9]+\\.jsonschema\\.json)`\\s*\\|.*\\|\\s*`([0-9a-f]{64})`\\s*\\|$", Pattern.MULTILINE).matcher(readme);
        while (m.find()) {
            recorded.put(m.group(1), m.group(2));
        }
        try (Stream<Path> files = Files.list(SCHEMAS)) {
            final List<Path> schemas = files.filter(p -> p.toString().endsWith(".jsonschema.json")).sorted().toList();
            assertFalse(schemas.isEmpty(), "no schema in " + SCHEMAS);
            for (final Path schema : schemas) {
                final String name = schema.getFileName().toString();
                assertTrue(recorded.containsKey(name), name + " is not listed with its SHA-256 in schema/README.md");
                assertEquals(recorded.get(name), sha256(schema), name + " differs from the copy schema/README.md records");
            }
            assertEquals(recorded.size(), schemas.size(), "schema/README.md lists files that are not there: " + recorded.keySet());
        }
        assertTrue(Files.isRegularFile(SCHEMAS.resolve("LICENSE")), "the Apache-2.0 licence of the copied schemas");
    }

    // ---------------------------------------------------------------- what the schemas cannot say

    @Test
    void queriesUseOnlyMetricNamesOfTheContract() throws Exception {
        final Map<String, Set<String>> contract = contract();
        assertTrue(contract.containsKey("latency_server_estimate_seconds"), "contract parsed: " + contract.keySet());
        assertTrue(contract.containsKey("latency_server_request_status_seconds"), "contract parsed: " + contract.keySet());
        assertFalse(contract.containsKey("latency_server_estimate_milliseconds"), "a gone name was read as a contract name");
        assertEquals(List.of(), metricNameProblems(dashboard(), contract));
    }

    @Test
    void perConnectionSeriesFollowTheIndexRefVariableAndEveryVariableIsDefined() throws Exception {
        final JsonNode dashboard = dashboard();
        assertEquals(List.of(), variableProblems(dashboard, contract()));
        final JsonNode indexRef = variable(dashboard, "index_ref").orElseThrow();
        assertEquals("label_values(latency_server_estimate_seconds, index_ref)", indexRef.path("query").asText());
        assertTrue(indexRef.path("multi").asBoolean() && indexRef.path("includeAll").asBoolean(), "index_ref: several connections at once");
    }

    @Test
    void theOwnChecksCatchBrokenDashboards() throws Exception {
        final Map<String, Set<String>> contract = contract();
        assertNotEquals(List.of(), metricNameProblems(mutated(d -> setExpr(d, 0, "latency_server_estimate_milliseconds")), contract),
            "a gone metric name");
        assertNotEquals(List.of(), metricNameProblems(mutated(d -> setExpr(d, 0, "rate(latency_server_callz_total[5m])")), contract),
            "a misspelt metric name");
        assertNotEquals(List.of(), datasourceProblems(mutated(d -> panel(d, 1).putObject("datasource").put("type", "prometheus")
            .put("uid", "P1809F7CD0C75ACF3"))), "a panel bound to one Grafana's datasource uid");
        assertNotEquals(List.of(), datasourceProblems(mutated(d -> ((ObjectNode) panel(d, 1).path("targets").get(0)).remove("datasource"))),
            "a query without a datasource");
        assertNotEquals(List.of(), variableProblems(mutated(d -> setExpr(d, 0, "latency_server_estimate_seconds")), contract),
            "a per-connection series that ignores the index_ref variable");
        assertNotEquals(List.of(), variableProblems(mutated(d -> setExpr(d, 0,
            "latency_server_estimate_seconds{index_ref=\"$index_ref\"}")), contract), "index_ref matched with = though it is multi-value");
        assertNotEquals(List.of(), variableProblems(mutated(d -> setExpr(d, 0,
            "latency_server_estimate_seconds{index_ref=~\"$connection\"}")), contract), "an undefined variable");
        assertNotEquals(List.of(), layoutProblems(mutated(d -> panel(d, 1).put("id", panel(d, 0).path("id").asInt()))), "two panels with one id");
        assertNotEquals(List.of(), layoutProblems(mutated(d -> panel(d, 1).set("gridPos", panel(d, 0).path("gridPos").deepCopy()))),
            "two panels in one place");
        assertNotEquals(List.of(), layoutProblems(mutated(d -> gridPos(d, 0).put("x", 20))), "a panel over the right edge");
        assertNotEquals(List.of(), layoutProblems(mutated(d -> panel(d, 0).remove("gridPos"))), "a panel without a position");
        assertNotEquals(List.of(), unitProblems(mutated(d -> unitOf(panelOfType(d, "timeseries")).put("unit", "seconds"))),
            "a unit Grafana does not know");
        assertNotEquals(List.of(), unitProblems(mutated(d -> unitOf(panelOfType(d, "timeseries")).put("unit", "ms"))),
            "milliseconds on series in seconds");
        assertNotEquals(List.of(), unitProblems(mutated(d -> unitOf(panelOfType(d, "stat")).remove("unit"))), "no unit");
    }

    @Test
    void everyExpressionParsesWithPromtool(@TempDir final Path dir) throws Exception {
        final Optional<Path> promtool = promtool();
        // Installed by .ci/run (Debian package prometheus); missing, the check fails rather than passing unseen.
        assertTrue(promtool.isPresent(), "promtool is not installed: install the Debian package 'prometheus', which ships it");
        final List<String> expressions = expressions(dashboard());
        assertTrue(expressions.size() > 10, "expressions found: " + expressions);
        assertEquals(0, promtoolCheck(promtool.get(), dir.resolve("dashboard.rules.yml"), expressions),
            "promtool could not parse an expression of the dashboard (its output is above)");
        assertNotEquals(0, promtoolCheck(promtool.get(), dir.resolve("broken.rules.yml"),
            List.of("histogram_quantile(0.99, sum(rate(latency_server_request_status_seconds[$__rate_interval]))")),
            "promtool accepted an unclosed parenthesis, so it checks nothing");
    }

    // ---------------------------------------------------------------- the checks

    private static List<String> schemaProblems(final JsonNode dashboard) throws IOException {
        final List<String> problems = new ArrayList<>();
        for (final ValidationMessage message : DRAFT_07.getSchema(JSON.readTree(SCHEMAS.resolve("dashboard.jsonschema.json").toFile()))
            .validate(dashboard)) {
            problems.add(message.getMessage());
        }
        return problems;
    }

    /** Each panel's options and field config against its plugin's schema, each query against the Prometheus query schema. */
    private static List<String> pluginSchemaProblems(final JsonNode dashboard) throws IOException {
        final List<String> problems = new ArrayList<>();
        final JsonSchema query = definition("prometheus", "dataquery");
        for (final JsonNode panel : panels(dashboard)) {
            final String where = "panel " + panel.path("id") + " '" + panel.path("title").asText() + "'";
            final String type = panel.path("type").asText();
            if (type.equals("row")) {
                continue;
            }
            final Path schemaFile = SCHEMAS.resolve(type + ".jsonschema.json");
            if (!Files.isRegularFile(schemaFile)) {
                problems.add(where + ": no schema for panel type '" + type + "' in " + SCHEMAS);
                continue;
            }
            definition(type, "Options").validate(panel.path("options")).forEach(m -> problems.add(where + " options: " + m.getMessage()));
            final JsonNode custom = panel.path("fieldConfig").path("defaults").path("custom");
            if (hasDefinition(type, "FieldConfig")) {
                definition(type, "FieldConfig").validate(custom.isMissingNode() ? JSON.createObjectNode() : custom)
                    .forEach(m -> problems.add(where + " fieldConfig.defaults.custom: " + m.getMessage()));
            } else if (!custom.isMissingNode() && !custom.isEmpty()) {
                problems.add(where + ": custom field config, but the " + type + " panel has none");
            }
            for (final JsonNode target : panel.path("targets")) {
                query.validate(target).forEach(m -> problems.add(where + " query " + target.path("refId") + ": " + m.getMessage()));
            }
        }
        return problems;
    }

    private static List<String> metricNameProblems(final JsonNode dashboard, final Map<String, Set<String>> contract) {
        final List<String> problems = new ArrayList<>();
        for (final String expr : expressions(dashboard)) {
            final Matcher m = METRIC.matcher(expr);
            while (m.find()) {
                if (contractName(m.group(), contract) == null) {
                    problems.add("'" + m.group() + "' is not in ops/metrics-contract.md: " + expr);
                }
            }
        }
        return problems;
    }

    private static List<String> datasourceProblems(final JsonNode dashboard) {
        final List<String> problems = new ArrayList<>();
        final Optional<JsonNode> datasource = variable(dashboard, "datasource");
        if (datasource.isEmpty() || !datasource.get().path("type").asText().equals("datasource")
            || !datasource.get().path("query").asText().equals("prometheus")) {
            problems.add("no template variable 'datasource' of type datasource choosing a prometheus datasource");
        }
        for (final JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.path("type").asText().equals("query") && !isDatasourceVariable(variable.path("datasource"))) {
                problems.add("variable " + variable.path("name") + " does not query ${datasource}: " + variable.path("datasource"));
            }
        }
        for (final JsonNode panel : panels(dashboard)) {
            if (panel.path("type").asText().equals("row")) {
                continue;
            }
            final String where = "panel " + panel.path("id") + " '" + panel.path("title").asText() + "'";
            if (!isDatasourceVariable(panel.path("datasource"))) {
                problems.add(where + ": datasource " + panel.path("datasource") + " is not the variable");
            }
            if (panel.path("targets").isEmpty()) {
                problems.add(where + ": no query");
            }
            for (final JsonNode target : panel.path("targets")) {
                if (!isDatasourceVariable(target.path("datasource"))) {
                    problems.add(where + " query " + target.path("refId") + ": datasource " + target.path("datasource") + " is not the variable");
                }
            }
        }
        return problems;
    }

    /** Variables in queries are defined, and every per-connection series is filtered by the multi-value index_ref variable. */
    private static List<String> variableProblems(final JsonNode dashboard, final Map<String, Set<String>> contract) {
        final List<String> problems = new ArrayList<>();
        final Set<String> defined = new TreeSet<>(GRAFANA_BUILTINS);
        dashboard.path("templating").path("list").forEach(v -> defined.add(v.path("name").asText()));
        for (final JsonNode panel : panels(dashboard)) {
            for (final JsonNode target : panel.path("targets")) {
                final String expr = target.path("expr").asText();
                final Matcher variable = VARIABLE.matcher(expr);
                while (variable.find()) {
                    if (!defined.contains(variable.group(1))) {
                        problems.add("undefined variable $" + variable.group(1) + " in " + expr);
                    }
                }
                final Matcher selector = SELECTOR.matcher(expr);
                while (selector.find()) {
                    final String name = contractName(selector.group(1), contract);
                    if (name != null && contract.get(name).contains("index_ref")
                        && (selector.group(2) == null || !selector.group(2).contains("index_ref=~\"$index_ref\""))) {
                        problems.add(selector.group() + " is per connection but not filtered by index_ref=~\"$index_ref\": " + expr);
                    }
                }
            }
        }
        return problems;
    }

    private static List<String> layoutProblems(final JsonNode dashboard) {
        final List<String> problems = new ArrayList<>();
        final Set<Integer> ids = new TreeSet<>();
        final List<JsonNode> placed = new ArrayList<>();
        for (final JsonNode panel : panels(dashboard)) {
            final String where = "panel " + panel.path("id") + " '" + panel.path("title").asText() + "'";
            if (!panel.path("id").canConvertToInt() || !ids.add(panel.path("id").asInt())) {
                problems.add(where + ": id missing or not unique");
            }
            final JsonNode g = panel.path("gridPos");
            if (!Stream.of("x", "y", "w", "h").allMatch(k -> g.path(k).canConvertToInt())) {
                problems.add(where + ": no complete gridPos");
                continue;
            }
            if (g.path("x").asInt() < 0 || g.path("y").asInt() < 0 || g.path("w").asInt() <= 0 || g.path("h").asInt() <= 0
                || g.path("x").asInt() + g.path("w").asInt() > GRID_COLUMNS) {
                problems.add(where + ": gridPos " + g + " is outside the " + GRID_COLUMNS + " columns");
            }
            for (final JsonNode other : placed) {
                final JsonNode o = other.path("gridPos");
                if (overlap(g, "x", "w", o) && overlap(g, "y", "h", o)) {
                    problems.add(where + " overlaps panel " + other.path("id") + ": " + g + " and " + o);
                }
            }
            placed.add(panel);
        }
        return problems;
    }

    /** A unit Grafana knows (units.jsonschema.json) on every panel that shows values, seconds for seconds, ratios as percentunit. */
    private static List<String> unitProblems(final JsonNode dashboard) throws IOException {
        final Set<String> grafanaUnits = new TreeSet<>();
        JSON.readTree(SCHEMAS.resolve("units.jsonschema.json").toFile()).path("definitions")
            .forEach(unit -> grafanaUnits.add(unit.path("const").asText()));
        final List<String> problems = new ArrayList<>();
        for (final JsonNode panel : panels(dashboard)) {
            final String type = panel.path("type").asText();
            if (type.equals("row")) {
                continue;
            }
            final String where = "panel " + panel.path("id") + " '" + panel.path("title").asText() + "'";
            final JsonNode unit = panel.path("fieldConfig").path("defaults").path("unit");
            if (!unit.isTextual()) {
                problems.add(where + ": no unit in fieldConfig.defaults");
                continue;
            }
            if (!grafanaUnits.contains(unit.asText())) {
                problems.add(where + ": '" + unit.asText() + "' is not a Grafana unit");
            }
            if (type.equals("table")) {
                continue;
            }
            final Set<String> names = new LinkedHashSet<>();
            for (final JsonNode target : panel.path("targets")) {
                final Matcher m = METRIC.matcher(target.path("expr").asText());
                while (m.find()) {
                    names.add(m.group().replaceFirst("_bucket$", ""));
                }
            }
            if (!names.isEmpty() && names.stream().allMatch(n -> n.endsWith("_seconds")) && !unit.asText().equals("s")) {
                problems.add(where + ": series in seconds " + names + " shown as '" + unit.asText() + "'");
            }
            if (!names.isEmpty() && names.stream().allMatch(n -> n.endsWith("_ratio")) && !unit.asText().equals("percentunit")) {
                problems.add(where + ": ratios " + names + " shown as '" + unit.asText() + "'");
            }
        }
        return problems;
    }

    private static int promtoolCheck(final Path promtool, final Path rules, final List<String> expressions) throws Exception {
        final List<Map<String, String>> records = new ArrayList<>();
        for (int i = 0; i < expressions.size(); i++) {
            // Grafana's variables are not PromQL: a range and a regular expression take their places for the parser,
            // and a variable's label_values(series, label) is checked as its series selector
            final String expr = expressions.get(i).replace("$__rate_interval", "5m").replace("$index_ref", ".*")
                .replaceFirst("^label_values\\((.+),\\s*[a-z_]+\\)$", "$1");
            records.add(Map.of("record", "dashboard:expression_" + i, "expr", expr));
        }
        new YAMLMapper().writeValue(rules.toFile(), Map.of("groups", List.of(Map.of("name", "dashboard", "rules", records))));
        final Process process = new ProcessBuilder(promtool.toString(), "check", "rules", rules.toString())
            .redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "promtool did not finish");
        System.out.println(output);
        return process.exitValue();
    }

    // ---------------------------------------------------------------- reading

    private static JsonNode dashboard() throws IOException {
        return JSON.readTree(DASHBOARD.toFile());
    }

    /** Metric name -> its labels, from the contract's list; the names of its 'Gone' line are not contract names. */
    private static Map<String, Set<String>> contract() throws IOException {
        final Map<String, Set<String>> names = new HashMap<>();
        for (final String line : Files.readAllLines(CONTRACT)) {
            if (line.startsWith("Gone")) {
                continue;
            }
            final Matcher m = CONTRACT_SERIES.matcher(line);
            while (m.find()) {
                final Set<String> labels = names.computeIfAbsent(m.group(1), n -> new TreeSet<>());
                if (m.group(2) != null) {
                    labels.addAll(List.of(m.group(2).split(",")));
                }
            }
        }
        return names;
    }

    /** The contract name a series name belongs to: itself, or a histogram's classic series (_bucket, _count, _sum). */
    private static String contractName(final String series, final Map<String, Set<String>> contract) {
        if (contract.containsKey(series)) {
            return series;
        }
        final String base = series.replaceFirst("_(bucket|count|sum)$", "");
        return !base.equals(series) && contract.containsKey(base) ? base : null;
    }

    private static List<JsonNode> panels(final JsonNode dashboard) {
        final List<JsonNode> panels = new ArrayList<>();
        for (final JsonNode panel : dashboard.path("panels")) {
            panels.add(panel);
            panel.path("panels").forEach(panels::add);
        }
        return panels;
    }

    private static List<String> expressions(final JsonNode dashboard) {
        final List<String> expressions = new ArrayList<>();
        for (final JsonNode panel : panels(dashboard)) {
            panel.path("targets").forEach(t -> expressions.add(t.path("expr").asText()));
        }
        for (final JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.path("type").asText().equals("query")) {
                expressions.add(variable.path("query").asText());
            }
        }
        return expressions;
    }

    private static Optional<JsonNode> variable(final JsonNode dashboard, final String name) {
        for (final JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.path("name").asText().equals(name)) {
                return Optional.of(variable);
            }
        }
        return Optional.empty();
    }

    private static boolean isDatasourceVariable(final JsonNode ref) {
        return ref.path("type").asText().equals("prometheus") && ref.path("uid").asText().equals(DATASOURCE_UID);
    }

    private static boolean overlap(final JsonNode a, final String start, final String length, final JsonNode b) {
        return a.path(start).asInt() < b.path(start).asInt() + b.path(length).asInt()
            && b.path(start).asInt() < a.path(start).asInt() + a.path(length).asInt();
    }

    private static JsonSchema definition(final String file, final String definition) throws IOException {
        final ObjectNode schema = (ObjectNode) JSON.readTree(SCHEMAS.resolve(file + ".jsonschema.json").toFile());
        schema.put("$ref", "#/definitions/" + definition);
        return DRAFT_07.getSchema(schema);
    }

    private static boolean hasDefinition(final String file, final String definition) throws IOException {
        return JSON.readTree(SCHEMAS.resolve(file + ".jsonschema.json").toFile()).path("definitions").has(definition);
    }

    private static Optional<Path> promtool() {
        final List<Path> candidates = new ArrayList<>();
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir, "promtool"));
            }
        }
        candidates.add(Path.of("/usr/bin/promtool"));
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    private static String sha256(final Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    // ---------------------------------------------------------------- mutations

    private static ObjectNode mutated(final Consumer<ObjectNode> change) throws IOException {
        final ObjectNode copy = (ObjectNode) dashboard();
        change.accept(copy);
        return copy;
    }

    private static ObjectNode panel(final JsonNode dashboard, final int index) {
        return (ObjectNode) dashboard.path("panels").get(index);
    }

    private static ObjectNode panelOfType(final JsonNode dashboard, final String type) {
        for (final JsonNode panel : dashboard.path("panels")) {
            if (panel.path("type").asText().equals(type)) {
                return (ObjectNode) panel;
            }
        }
        throw new AssertionError("no " + type + " panel");
    }

    private static ObjectNode gridPos(final JsonNode dashboard, final int index) {
        return (ObjectNode) panel(dashboard, index).path("gridPos");
    }

    private static ObjectNode unitOf(final ObjectNode panel) {
        return (ObjectNode) panel.path("fieldConfig").path("defaults");
    }

    private static void setExpr(final JsonNode dashboard, final int index, final String expr) {
        final ArrayNode targets = (ArrayNode) panel(dashboard, index).path("targets");
        ((ObjectNode) targets.get(0)).put("expr", expr);
    }
}
