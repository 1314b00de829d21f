package org.latencyserver.launch;

/**
 * The checks a component's context makes of its settings before a launch, each refusing a bad value
 * with one message that names the setting as its command-line option (the main prints it after its
 * own name and exits with its usage status), e.g. {@code --http-port must be 0..65535, was 70000}.
 *
 * <p>Only the checks several contexts make with the same wording live here; a context's own checks
 * stay in the context.
 *
 * <p>Stateless; thread-safe.
 */
public final class ContextChecks {

    /** The highest TCP or UDP port. */
    public static final int MAX_PORT = 65_535;

    private ContextChecks() {
    }

    /**
     * @param option   the setting's command-line option, e.g. {@code --host}
     * @param value    its value
     * @param mustWhat what the value must do, completing "OPTION must …", e.g. {@code be an address}
     * @throws IllegalArgumentException {@code OPTION must MUSTWHAT, was 'VALUE'} when it is null or blank
     */
    public static void requireNonBlank(final String option, final String value, final String mustWhat) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(option + " must " + mustWhat + ", was '" + value + "'");
        }
    }

    /**
     * @param option the setting's command-line option
     * @param port   its value
     * @param lowest the lowest value it may take: 1, 0 (any free port) or -1 (no such endpoint)
     * @throws IllegalArgumentException {@code OPTION must be LOWEST..65535, was PORT} when out of range
     */
    public static void requirePort(final String option, final int port, final int lowest) {
        if (port < lowest || port > MAX_PORT) {
            throw new IllegalArgumentException(option + " must be " + lowest + ".." + MAX_PORT + ", was " + port);
        }
    }

    /**
     * @param option the setting's command-line option
     * @param value  its value, in the option's unit
     * @param least  the least value it may take, in the same unit
     * @throws IllegalArgumentException {@code OPTION must be >= LEAST, was VALUE} when below
     */
    public static void requireAtLeast(final String option, final long value, final long least) {
        if (value < least) {
            throw new IllegalArgumentException(option + " must be >= " + least + ", was " + value);
        }
    }
}
