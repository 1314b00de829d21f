package org.latencyserver.testbed;

/**
 * The names a testbed gives what it creates, all derived from its name so that {@code down} finds
 * everything by name alone: namespaces {@code lt-NAME-NODE}; inside a host's namespace one
 * interface {@value #HOST_INTERFACE}; inside a switch's the bridge {@value #BRIDGE}, a port
 * {@code p-HOST} per host and {@code l-LINK} per link.
 *
 * <p>Testbed names hold no '-' ({@link TopologyReader#TESTBED_NAME}), so no testbed's prefix
 * is the start of another's: {@code lt-a-} never matches {@code lt-ab-...}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param testbed the testbed's name
 */
public record TestbedNames(String testbed) {

    /** Every testbed namespace starts with this. */
    public static final String NAMESPACE_PREFIX = "lt-";
    /** A host's one interface, in its namespace. */
    public static final String HOST_INTERFACE = "eth0";
    /** A switch's bridge, in its namespace. */
    public static final String BRIDGE = "br0";

    /**
     * @throws IllegalArgumentException when the name is not a testbed name
     */
    public TestbedNames {
        if (testbed == null || !TopologyReader.TESTBED_NAME.matcher(testbed).matches()) {
            throw new IllegalArgumentException("a testbed name is a-z then a-z0-9, up to "
                + TopologyReader.MAX_TESTBED_NAME_CHARS + " characters (no '-'), was '" + testbed + "'");
        }
    }

    /** @return the start of every namespace of this testbed, {@code lt-NAME-} */
    public String prefix() {
        return NAMESPACE_PREFIX + testbed + "-";
    }

    /** @return the namespace of a host or switch */
    public String namespace(final String node) {
        return prefix() + node;
    }

    /** @return whether a namespace belongs to this testbed */
    public boolean owns(final String namespace) {
        return namespace.startsWith(prefix());
    }

    /** @return the switch's port toward a host, in the switch's namespace */
    public static String hostPort(final String host) {
        return "p-" + host;
    }

    /** @return a switch's port on a link, in each end's namespace */
    public static String linkPort(final String link) {
        return "l-" + link;
    }
}
