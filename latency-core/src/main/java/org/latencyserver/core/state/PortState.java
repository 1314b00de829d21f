package org.latencyserver.core.state;

/**
 * The state of the intermediate switch port (thesis section 4.2.4): NORMAL at or below 90 %,
 * LOADED above it — where every change of the utilisation is a new state, since the port's
 * contribution grows steeply —, SATURATED when more is offered than the port carries (its
 * utilisation reads 100 % whatever its queue does, and it drops), or UNKNOWN when the port is not
 * observed.
 *
 * <p>{@link #code()} is the IDL's {@code port_state}: 0 NORMAL, 91..100 LOADED at that percent,
 * 101 SATURATED, −1 UNKNOWN. Immutable and thread-safe.
 *
 * @param kind               NORMAL, LOADED, SATURATED or UNKNOWN
 * @param utilisationPercent for LOADED the integer utilisation, 91..100; 101 for SATURATED; 0 otherwise
 */
public record PortState(Kind kind, int utilisationPercent) {

    /** The three kinds of port state. */
    public enum Kind {
        /** At or below the loaded threshold: the port adds nothing. */
        NORMAL,
        /** Above the threshold: the port adds latency by the profile's port model. */
        LOADED,
        /** Offered beyond its rate: at 100 % and dropping; its queue is full. */
        SATURATED,
        /** Not observed (no SNMP answers). */
        UNKNOWN;

        /** @return true for LOADED and SATURATED: a port of this kind adds its queue to the latency */
        public boolean isLoaded() {
            return this == LOADED || this == SATURATED;
        }
    }

    /** The port at or below 90 %. */
    public static final PortState NORMAL = new PortState(Kind.NORMAL, 0);
    /** The port's utilisation is not known. */
    public static final PortState UNKNOWN = new PortState(Kind.UNKNOWN, 0);
    /** The IDL code, and the utilisation a poller reports, of a port at its rate and dropping. */
    public static final int SATURATED_CODE = 101;
    /** The port at its rate and dropping. */
    public static final PortState SATURATED = new PortState(Kind.SATURATED, SATURATED_CODE);

    /**
     * @throws IllegalArgumentException when a LOADED state's utilisation is not 91..100, or another
     *                                  state carries a utilisation
     */
    public PortState {
        if (kind == null) {
            throw new IllegalArgumentException("port state kind must not be null");
        }
        final boolean fits = switch (kind) {
            case LOADED -> utilisationPercent >= 91 && utilisationPercent <= 100;
            case SATURATED -> utilisationPercent == SATURATED_CODE;
            default -> utilisationPercent == 0;
        };
        if (!fits) {
            throw new IllegalArgumentException("a " + kind + " port state cannot carry utilisation " + utilisationPercent + " %");
        }
    }

    /**
     * @param utilisationPercent 91..100
     * @return the LOADED state at that utilisation
     */
    public static PortState loaded(final int utilisationPercent) {
        return new PortState(Kind.LOADED, utilisationPercent);
    }

    /** @return true when LOADED or SATURATED: the port's queue adds to the latency */
    public boolean isLoaded() {
        return kind.isLoaded();
    }

    /** @return 0 NORMAL, 91..100 LOADED, 101 SATURATED, −1 UNKNOWN */
    public int code() {
        return kind == Kind.NORMAL ? 0 : kind == Kind.UNKNOWN ? -1 : utilisationPercent;
    }

    /**
     * @param code an IDL {@code port_state}
     * @return the state
     * @throws IllegalArgumentException when the code is not −1, 0, 91..100 or 101
     */
    public static PortState fromCode(final int code) {
        if (code == 0) {
            return NORMAL;
        }
        if (code == -1) {
            return UNKNOWN;
        }
        if (code >= 91 && code <= 100) {
            return loaded(code);
        }
        if (code == SATURATED_CODE) {
            return SATURATED;
        }
        throw new IllegalArgumentException("unknown port state code " + code + "; expected -1, 0, 91..100 or 101");
    }

    @Override
    public String toString() {
        return kind == Kind.LOADED ? "LOADED " + utilisationPercent + " %" : kind.name();
    }
}
