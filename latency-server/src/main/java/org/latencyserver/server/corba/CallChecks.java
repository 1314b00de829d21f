package org.latencyserver.server.corba;

import java.util.Optional;
import org.latencyserver.server.engine.Refusal;

/**
 * Checks more than one call makes (reads too), each giving a {@link Refusal} or nothing. Stateless and thread-safe.
 */
final class CallChecks {

    /**
     * The longest free-text name a caller may send (an agent's name, a profile's source name): it
     * goes into estimates' basis, every subscriber's push, the state file and the log.
     */
    static final int MAX_NAME_CHARS = 200;

    private CallChecks() {
    }

    /**
     * @param indexRef a connection no row has
     * @return the refusal of a call naming it, as the extended interface words it
     */
    static Refusal unknownConnection(final short indexRef) {
        return Refusal.of(Refusal.Kind.UNKNOWN_CONNECTION, "index_ref", indexRef, "",
            "no connection " + indexRef + " is configured");
    }

    /**
     * @param field       the field, e.g. {@code agent}
     * @param description how the message names it, e.g. {@code "the agent's name"}
     * @param name        the name sent, possibly null (then a default is used)
     * @return a {@link Refusal.Kind#TOO_LARGE} refusal when it is longer than {@link #MAX_NAME_CHARS}; else empty
     */
    static Optional<Refusal> nameLength(final String field, final String description, final String name) {
        if (name == null || name.length() <= MAX_NAME_CHARS) {
            return Optional.empty();
        }
        return Optional.of(Refusal.of(Refusal.Kind.TOO_LARGE, field, name.length() + " characters", MAX_NAME_CHARS + " characters",
            description + " has " + name.length() + " characters, more than " + MAX_NAME_CHARS));
    }
}
