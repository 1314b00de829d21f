package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.console.ConsoleSnapshot.ConnectionView;

/**
 * Names from the configuration and words from the server reach the operator's terminal as visible
 * text: no control character (C0 other than the table's own line ends, DEL, C1, an escape sequence's
 * ESC) of theirs is printed raw.
 */
class TerminalControlCharactersTest {

    private static final String HOSTILE_NODE = "\u001b[2J\u001b[31mws7";

    @Test
    void aNodeNameWithAnEscapeSequenceIsPrintedEscapedNotObeyed() {
        final ConsoleSnapshot snapshot = new ConsoleSnapshot("srv\u001b]0;owned\u0007", true, "", 0, 1,
            List.of(connection(HOSTILE_NODE, "ws8\u009b2J\u007f")), List.of(), "");
        final String text = TerminalTable.render(snapshot, 0);
        assertNoControlCharacterButLineEnds(text);
        assertTrue(text.contains("\\x1b[2J\\x1b[31mws7 -> ws8\\x9b2J\\x7f"), text);
        assertTrue(text.startsWith("Latency Server srv\\x1b]0;owned\\x07\n"), text);
        assertEquals(3, text.lines().count(), "the title, the header and the one row:\n" + text);
    }

    @Test
    void aProblemOrPartitionNameWithControlCharactersStaysOnItsLine() {
        final ConsoleSnapshot down = new ConsoleSnapshot("partition p\u001b[2J", false, "unreachable\nFAKE LINE\r", 1, 1,
            List.of(), List.of(), "");
        final PartitionsSnapshot partitions = PartitionsSnapshot.of("Latency\u001b[31mServer", "corbaloc::ns:2809/NameService",
            "naming \u0008problem", List.of(new PartitionsSnapshot.PartitionView("p\u001b[2J", "LatencyServer/p", false, true, down)));
        final String text = TerminalTable.renderPartitions(partitions, 1);
        assertNoControlCharacterButLineEnds(text);
        assertFalse(text.lines().anyMatch(line -> line.startsWith("FAKE LINE")), text);
        assertTrue(text.contains("unreachable\\x0aFAKE LINE\\x0d"), text);
        assertTrue(text.contains("DOWN: p\\x1b[2J"), text);
    }

    @Test
    void aPathOfSeveralPortsGetsALineNamingEveryHopWithItsStateAndHostileLinkNamesEscaped() {
        final ConnectionView one = connection("ws1", "ws2");
        final ConnectionView path = new ConnectionView(2, "ws1", "ws2", 1, 1, "type", "type", 1024, 2, "bound", 96, "p", 0,
            "adaptive", 11, "LOW/LOW", 95, "LOADED 95 %", new ConsoleSnapshot.Mib(10, 10, 95, 10, 10, 95), "", 1, 0, 0, 0, 0,
            null, "not measured", null, false, "", null, null, "", List.of(), List.of(
                new ConsoleSnapshot.HopView("sw1-p3", 95, "LOADED 95 %", 95),
                new ConsoleSnapshot.HopView("sw2\u001b[2J", -1, "UNKNOWN", -1)), "union");
        final String text = TerminalTable.render(new ConsoleSnapshot("srv", true, "", 0, 1, List.of(one, path), List.of(), ""), 0);
        assertNoControlCharacterButLineEnds(text);
        assertTrue(text.contains("\n     path (port above is the worst hop): sw1-p3 LOADED 95 % (95 %) -> sw2\\x1b[2J UNKNOWN (?)\n"),
            text);
        assertEquals(5, text.lines().count(), "the title, the header, two rows and the path's line:\n" + text);
    }

    @Test
    void plainTextAndNonAsciiLettersAreLeftAlone() {
        assertEquals("Zürich ws7 — 95 %", TerminalText.safe("Zürich ws7 — 95 %"));
        assertEquals("a\\x09b\\x85c", TerminalText.safe("a\tb\u0085c"));
        assertEquals("", TerminalText.safe(""));
    }

    private static void assertNoControlCharacterButLineEnds(final String text) {
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            final boolean control = c < 0x20 && c != '\n' || c >= 0x7f && c <= 0x9f;
            assertFalse(control, "a raw control character U+" + Integer.toHexString(c) + " at " + i + " in:\n" + text);
        }
    }

    private static ConnectionView connection(final String client, final String peer) {
        return new ConnectionView(1, client, peer, 1, 1, "type", "type", 1024, 1, "average", 0, "thesis", 0, "none", 11,
            "LOW/LOW", 1, "NORMAL", new ConsoleSnapshot.Mib(10, 10, 10, -1, -1, -1), "", 1, 0, 0, 0, 0, null, "not measured",
            null, false, "", null, null, "", List.of(), List.of(), "union");
    }
}
