package org.latencyserver.server.launch;

/**
 * Why a component of this module could not be launched from its context: what went wrong, in one
 * message fit for an operator (the launcher's main prefixes its name), and which kind of failure it
 * is, so that the main maps it to an exit code without reading the message.
 *
 * <p>Nothing is left running when it is thrown: the launcher has stopped what it had started.
 */
public final class LaunchFailure extends Exception {

    private static final long serialVersionUID = 1L;

    /** The kinds of failure a main tells apart. */
    public enum Kind {
        /** The context is inconsistent (a bad option or combination of options). */
        INVALID_CONTEXT,
        /** A file the component reads (configuration, TLS stores, SNMP secrets) is refused. */
        CONFIGURATION_REFUSED,
        /** The naming service given cannot be reached or refuses the name. */
        NAMING_REFUSED,
        /**
         * Another partition registered in the naming service already holds part of this partition's
         * {@code index_ref} ranges, or one of its client nodes while its server runs.
         */
        PARTITION_CONFLICT,
        /** A file or directory the component writes cannot be written. */
        CANNOT_WRITE,
        /** A port it is to listen on is taken or not allowed. */
        CANNOT_LISTEN
    }

    private final Kind kind;

    /**
     * @param kind    which kind of failure
     * @param message what went wrong, naming the option, key or file
     */
    public LaunchFailure(final Kind kind, final String message) {
        super(message);
        this.kind = kind;
    }

    /** @return which kind of failure */
    public Kind kind() {
        return kind;
    }
}
