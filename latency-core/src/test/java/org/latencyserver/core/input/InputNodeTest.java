package org.latencyserver.core.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class InputNodeTest {

    private static InputNode parse(final String text, final InputFormat format, final InputFaults faults) {
        return InputNode.parse(text, format, faults);
    }

    @Test
    void yamlValuesKnowTheirOneBasedLineAndColumn() {
        final InputFaults faults = new InputFaults("a.yaml");
        final InputNode root = parse("server:\n  name: X\n  port: 0x1F\nlist:\n  - no\n", InputFormat.YAML, faults);
        assertTrue(faults.isEmpty(), faults.inFileOrder()::toString);
        final InputNode name = root.fields().get("server").fields().get("name");
        assertEquals(2, name.line());
        assertEquals(9, name.column());
        assertEquals("X", name.text());
        assertEquals("0x1F", root.fields().get("server").fields().get("port").text(), "the text as written");
        final InputNode item = root.fields().get("list").items().get(0);
        assertEquals(5, item.line());
        assertEquals(5, item.column());
        assertEquals(3, root.fields().get("server").keyLocation("port")[0]);
        assertEquals(3, root.fields().get("server").keyLocation("port")[1]);
    }

    @Test
    void jsonValuesKnowTheirOneBasedLineAndColumnAndScalarTypes() {
        final InputFaults faults = new InputFaults("a.json");
        final InputNode root = parse("{\n  \"n\": 12,\n  \"ok\": true,\n  \"s\": \"12\",\n  \"x\": NaN\n}\n", InputFormat.JSON, faults);
        assertTrue(faults.isEmpty(), faults.inFileOrder()::toString);
        final InputNode n = root.fields().get("n");
        assertEquals(2, n.line());
        assertEquals(8, n.column());
        assertTrue(n.isNumber());
        assertTrue(root.fields().get("ok").booleanValue());
        assertTrue(root.fields().get("s").isText(), "a quoted number stays text");
        assertTrue(root.fields().get("x").isNumber(), "NaN parses so that a reader can name its field");
        assertTrue(Double.isNaN(root.fields().get("x").doubleValue()));
        assertEquals(12.0, n.doubleValue());
        assertTrue(n.isIntegral(), "12 is an integer token");
        assertTrue(!root.fields().get("x").isIntegral() && !root.fields().get("s").isIntegral());
        assertEquals(4, root.keyLocation("s")[0]);
        assertEquals(3, root.keyLocation("s")[1]);
    }

    @Test
    void aRepeatedKeyIsAFaultAtTheSecondKeyAndTheFirstValueIsKept() {
        final InputFaults faults = new InputFaults("a.json");
        final InputNode root = parse("{\"a\": 1,\n \"a\": 2}", InputFormat.JSON, faults);
        assertEquals(List.of(new InputFault("a.json", 2, 2, "a", "key 'a' is given twice in one mapping (first at line 1);"
            + " keep one")), faults.inFileOrder());
        assertEquals("1", root.fields().get("a").text());

        final InputFaults yamlFaults = new InputFaults("a.yaml");
        parse("top:\n  a: 1\n  a: 2\n", InputFormat.YAML, yamlFaults);
        assertEquals(1, yamlFaults.count());
        assertEquals("top.a", yamlFaults.inFileOrder().get(0).path());
        assertEquals(3, yamlFaults.inFileOrder().get(0).line());
    }

    @Test
    void everyRepeatedKeyAndAliasIsReportedNotOnlyTheFirst() {
        final InputFaults faults = new InputFaults("a.yaml");
        final InputNode root = parse("a: &x 1\nb: *x\na: 3\nc: [*x]\n", InputFormat.YAML, faults);
        assertEquals(List.of("b", "a", "c[0]"), faults.inFileOrder().stream().map(InputFault::path).toList());
        assertEquals(InputNode.Kind.INVALID, root.fields().get("b").kind());
        assertTrue(faults.inFileOrder().get(0).reason().startsWith("YAML aliases ('*x') are not supported"));
    }

    static Stream<Arguments> malformedInputs() {
        return Stream.of(
            Arguments.of("a.yaml", InputFormat.YAML, "a: 1\nb:\n\t- 2\n", 3, 1, "malformed YAML: "),
            Arguments.of("a.json", InputFormat.JSON, "{\n  \"a\": ,\n}", 2, 8,
                "malformed or truncated JSON: Unexpected character (','"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedInputs")
    void malformedInputIsOneFaultAtTheOffendingCharacterAndAnInvalidRoot(final String source, final InputFormat format,
                                                                         final String text, final int line, final int column,
                                                                         final String reasonStart) {
        final InputFaults faults = new InputFaults(source);
        final InputNode root = parse(text, format, faults);
        assertEquals(InputNode.Kind.INVALID, root.kind());
        assertEquals(1, faults.count(), faults.inFileOrder()::toString);
        final InputFault fault = faults.inFileOrder().get(0);
        assertEquals(line, fault.line(), fault::toString);
        assertEquals(column, fault.column(), fault::toString);
        assertEquals("file", fault.path());
        assertTrue(fault.reason().startsWith(reasonStart), fault::toString);
    }

    @Test
    void jacksonsSourceDescriptionIsLeftOutOfAJsonFault() {
        final InputFaults faults = new InputFaults("a.json");
        parse("{\n  \"a\": ,\n}", InputFormat.JSON, faults);
        assertTrue(!faults.inFileOrder().get(0).reason().contains("Source"), faults.inFileOrder()::toString);
    }

    @Test
    void aSecondDocumentIsAFault() {
        final InputFaults json = new InputFaults("a.json");
        assertEquals(InputNode.Kind.INVALID, parse("{}\n{}", InputFormat.JSON, json).kind());
        assertEquals(2, json.inFileOrder().get(0).line());
        assertTrue(json.inFileOrder().get(0).reason().startsWith("malformed or truncated JSON: Trailing token"));
        final InputFaults yaml = new InputFaults("a.yaml");
        assertEquals(InputNode.Kind.INVALID, parse("a: 1\n---\nb: 2\n", InputFormat.YAML, yaml).kind());
        assertTrue(yaml.inFileOrder().get(0).reason().contains("second YAML document"), yaml.inFileOrder()::toString);
    }

    @Test
    void anEmptyDocumentIsANullRootAtLineZero() {
        final InputFaults faults = new InputFaults("a.yaml");
        final InputNode root = parse("# nothing\n", InputFormat.YAML, faults);
        assertEquals(InputNode.Kind.NULL, root.kind());
        assertEquals(0, root.line());
        assertTrue(faults.isEmpty());
    }

    @Test
    void aStringLongerThanTheLimitIsAFaultNamingTheLimit() {
        final InputFaults faults = new InputFaults("a.json");
        final InputNode root = InputNode.parse("{\"a\": \"" + "x".repeat(2000) + "\"}", InputFormat.JSON, 1000, faults);
        assertEquals(InputNode.Kind.INVALID, root.kind());
        final String reason = faults.inFileOrder().get(0).reason();
        assertTrue(reason.startsWith("a value too long: ") && reason.contains("(1000)"), reason);
        assertTrue(!reason.contains("StreamReadConstraints"), reason);
    }

    @Test
    void faultsPrintInCompilerFormAndTheExceptionCarriesEveryOneOnItsOwnLine() {
        final InputFaults faults = new InputFaults("f.yaml");
        faults.add(7, 3, "b", "second");
        faults.add(2, 5, "a", "first");
        assertEquals("f.yaml:2:5: a: first", faults.inFileOrder().get(0).toString());
        assertEquals("b", faults.inOrderFound().get(0).path());
        final InputFaultsException error = assertThrows(InputFaultsException.class, faults::throwIfAny);
        assertEquals(List.of("f.yaml:2:5: a: first", "f.yaml:7:3: b: second"),
            error.getMessage().lines().toList());
        assertEquals(2, error.faults().size());
    }

    @Test
    void aRefusalWithoutAFaultIsAProgrammingError() {
        assertThrows(IllegalArgumentException.class, () -> new InputFaultsException(List.of()));
    }

    @Test
    void aYamlDocumentBeyondSnakeYamlsDefaultThreeMiCodePointsIsRead() {
        // 30,000 list items of ~140 characters: about 4.2 M code points, more than SnakeYAML's default
        // limit (3 Mi) and as large as a server configuration of 25,000 connections.
        final StringBuilder text = new StringBuilder("connections:\n");
        final String padding = "x".repeat(100);
        for (int i = 1; i <= 30_000; i++) {
            text.append("  - { index_ref: ").append(i).append(", note: ").append(padding).append(" }\n");
        }
        assertTrue(text.length() > 3 * 1024 * 1024, "the document is beyond the default limit: " + text.length());
        final InputFaults faults = new InputFaults("big.yaml");

        final InputNode root = parse(text.toString(), InputFormat.YAML, faults);

        assertTrue(faults.isEmpty(), faults.inFileOrder().toString());
        assertEquals(30_000, root.fields().get("connections").items().size());
    }
}
