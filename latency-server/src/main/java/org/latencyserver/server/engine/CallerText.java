package org.latencyserver.server.engine;

/**
 * A string a caller sent (a node name, a profile name, a certificate's subject) as a message or a
 * log line may show it: whole up to {@link #MAX_SHOWN_CHARS}, else its first {@link #MAX_SHOWN_CHARS}
 * characters and its length, e.g. {@code nnnn… (1048576 chars)}. Every refusal and log line that
 * echoes a caller's string shows it through here, so a megabyte name costs a few hundred bytes.
 *
 * <p>Stateless and thread-safe.
 */
public final class CallerText {

    /** The most characters of a caller's string shown. */
    public static final int MAX_SHOWN_CHARS = 200;

    private CallerText() {
    }

    /**
     * @param callerString what the caller sent, possibly null (shown as {@code null})
     * @return it whole when at most {@link #MAX_SHOWN_CHARS} characters, else its start (never half a
     *         surrogate pair), {@code "… ("}, its length in chars and {@code " chars)"}
     */
    public static String capped(final String callerString) {
        if (callerString == null) {
            return "null";
        }
        if (callerString.length() <= MAX_SHOWN_CHARS) {
            return callerString;
        }
        int end = MAX_SHOWN_CHARS;
        if (Character.isHighSurrogate(callerString.charAt(end - 1))) {
            end--;
        }
        return callerString.substring(0, end) + "… (" + callerString.length() + " chars)";
    }
}
