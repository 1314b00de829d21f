package org.latencyserver.console;

/**
 * Text for the operator's terminal: a string from the configuration or the server is printed with
 * its control characters escaped, so it cannot move the cursor, clear the screen, recolour or
 * retitle the terminal, or start a line of its own. Pure and thread-safe.
 */
final class TerminalText {

    private TerminalText() {
    }

    /**
     * @param text any string from outside the console (a node name, a problem, a reason); may be null
     * @return the text with every C0 control character (line ends and tabs too), DEL and every C1
     *         control character written as {@code \xHH}; a backslash is kept as it is. ESC is a C0
     *         character, so an escape sequence shows as its visible rest, e.g. {@code \x1b[2J}
     */
    static String safe(final String text) {
        if (text == null) {
            return "";
        }
        StringBuilder escaped = null;
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (isControl(c)) {
                if (escaped == null) {
                    escaped = new StringBuilder(text.length() + 8).append(text, 0, i);
                }
                escaped.append(String.format(java.util.Locale.ROOT, "\\x%02x", (int) c));
            } else if (escaped != null) {
                escaped.append(c);
            }
        }
        return escaped == null ? text : escaped.toString();
    }

    private static boolean isControl(final char c) {
        return c < 0x20 || c >= 0x7f && c <= 0x9f;
    }
}
