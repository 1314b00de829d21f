package org.latencyserver.core.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InputMappingTest {

    private final InputFaults faults = new InputFaults("t.yaml");

    private InputMapping mapping(final String yaml) {
        return InputMapping.root(InputNode.parse(yaml, InputFormat.YAML, faults), "a test document", faults);
    }

    private List<String> reasons() {
        return faults.inFileOrder().stream().map(InputFault::toString).toList();
    }

    @Test
    void everyBadValueIsReportedInOnePassWithItsPlaceAndValue() {
        final InputMapping m = mapping("count: 0\nratio: '0.5'\nmode: fast\nname: ''\nflag: maybe\n");
        assertNull(m.integer("count", 5L, 1, 10));
        assertNull(m.decimal("ratio", 1.0, 0, true, 1));
        assertNull(m.choice("mode", "slow", Map.of("slow", "slow", "steady", "steady")));
        assertEquals("fallback", m.text("name", "fallback"));
        assertTrue(m.bool("flag", true));
        assertEquals(List.of(
                "t.yaml:1:8: count: must be 1..10, was 0",
                "t.yaml:2:8: ratio: expected a number, was the text '0.5' (remove the quotes)",
                "t.yaml:3:7: mode: must be one of slow | steady, was 'fast'",
                "t.yaml:4:7: name: must not be empty, was ''",
                "t.yaml:5:7: flag: expected true or false, was 'maybe'"),
            reasons());
    }

    @Test
    void absentKeysTakeTheirFallbackAndGoodValuesAreRead() {
        final InputMapping m = mapping("count: 7\nratio: 0.25\nmode: Steady\n");
        assertEquals(7L, m.integer("count", 5L, 1, 10));
        assertEquals(0.25, m.decimal("ratio", 1.0, 0, true, 1));
        assertEquals("steady", m.choice("mode", "slow", Map.of("slow", "slow", "steady", "steady")));
        assertEquals(3L, m.integer("other", 3L, 1, 10));
        assertTrue(faults.isEmpty(), reasons()::toString);
    }

    @Test
    void anUnknownKeyIsReportedAtTheKeyWithTheClosestKnownKeyOrTheListOfKeys() {
        final InputMapping m = mapping("a: 1\n  \nroud_trips: 3\ncolour: blue\nport: 4\n");
        m.allowOnly(Set.of("a", "round_trips"), Map.of("port", "it belongs under metrics:"));
        assertEquals(List.of(
                "t.yaml:3:1: roud_trips: unknown key 'roud_trips' - did you mean 'round_trips'?",
                "t.yaml:4:1: colour: unknown key 'colour'; the keys here are a, round_trips",
                "t.yaml:5:1: port: 'port' does not belong here: it belongs under metrics:"),
            reasons());
    }

    @Test
    void aRefusedKeyIsReportedWithItsOwnReasonAndNeverSuggestedForAMisspeltOne() {
        final InputMapping m = mapping("password: hunter2\nport: 4\npasswrd: x\n");
        m.allowOnly(Set.of("passes"), Map.of("port", "it belongs under metrics:", "password", "it belongs elsewhere"),
            Map.of("password", "put it in the environment", "port", "ports are fixed"));
        assertEquals(List.of(
                "t.yaml:1:1: password: put it in the environment",
                "t.yaml:2:1: port: ports are fixed",
                "t.yaml:3:1: passwrd: unknown key 'passwrd'; the keys here are passes"),
            reasons());
    }

    @Test
    void aValueOfTheWrongKindIsReportedWithTheKindExpected() {
        final InputMapping m = mapping("block: 3\nitems: { a: 1 }\nname: [x]\n");
        assertNull(m.section("block"));
        assertEquals(List.of(), m.list("items"));
        assertEquals("fallback", m.text("name", "fallback"));
        assertEquals(List.of(
                "t.yaml:1:8: block: expected a mapping of keys to values, was '3'",
                "t.yaml:2:8: items: expected a list (items starting with '- '), was a mapping",
                "t.yaml:3:7: name: expected a text, was a list"),
            reasons());
    }

    @Test
    void aMissingRequiredKeyIsReportedAtItsMapping() {
        final InputMapping top = mapping("items:\n  - { x: 1 }\n  - 4\n");
        final List<InputMapping> items = top.sections("items");
        assertEquals(1, items.size());
        assertNull(items.get(0).requiredText("name", "the item's name"));
        assertEquals(List.of("t.yaml:2:5: items[0].name: missing: the item's name",
            "t.yaml:3:5: items[1]: expected a mapping of keys to values, was '4'"), reasons());
    }

    @Test
    void aDocumentThatIsNotAMappingIsOneFault() {
        assertNull(mapping("- 1\n"));
        assertNull(mapping(""));
        assertEquals(List.of("t.yaml:0:0: file: the file is empty; expected a test document",
            "t.yaml:1:1: file: expected a test document (a mapping of keys to values), was a list"), reasons());
    }

    @Test
    void octalLookingNumbersAreRefusedWithAHint() {
        final InputMapping m = mapping("port: 010\n");
        assertNull(m.integer("port", 1L, 0, 100));
        assertTrue(reasons().get(0).endsWith("(YAML reads a leading 0 as octal: drop it)"), reasons()::toString);
    }
}
