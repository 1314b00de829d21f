package org.latencyserver.core.state;

/**
 * The load state of one workstation's CPU, as the thesis bins it (section 3.2.1, 4.2.4): three
 * utilisation bands whose default limits are 0–33 %, 34–66 % and 67–100 %.
 *
 * <p>The {@link #code()} is the value that crosses the IDL (see {@code Latserv.idl}); it is part
 * of the contract and never changes. {@link #UNKNOWN} is for a workstation whose utilisation is
 * not known (no SNMP answer yet, or answers stopped); profiles never hold it.
 *
 * <p>Immutable and thread-safe.
 */
public enum CpuState {
    /** 0–33 % by default. */
    LOW(1, "0-33"),
    /** 34–66 % by default. */
    MEDIUM(2, "34-66"),
    /** 67–100 % by default. */
    HIGH(3, "67-100"),
    /** Utilisation not known; estimates that depend on it are stale. */
    UNKNOWN(0, "unknown");

    private final int code;
    private final String thesisLabel;

    CpuState(final int code, final String thesisLabel) {
        this.code = code;
        this.thesisLabel = thesisLabel;
    }

    /** @return the stable integer encoding used in the IDL ({@code 0} unknown, {@code 1..3} low..high). */
    public int code() {
        return code;
    }

    /** @return the band as the thesis's Appendix A writes it, e.g. {@code "34-66"}. */
    public String thesisLabel() {
        return thesisLabel;
    }

    /** @return true for LOW, MEDIUM and HIGH. */
    public boolean isKnown() {
        return this != UNKNOWN;
    }

    /**
     * @param label a thesis label such as {@code "0-33"}, or an enum name such as {@code "LOW"}
     * @return the matching state
     * @throws IllegalArgumentException naming the label when it matches none
     */
    public static CpuState parse(final String label) {
        for (final CpuState state : values()) {
            if (state.thesisLabel.equals(label) || state.name().equals(label)) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown CPU state '" + label
            + "'; expected one of 0-33, 34-66, 67-100 (or LOW, MEDIUM, HIGH)");
    }

    /**
     * @param code an IDL encoding
     * @return the state with that code
     * @throws IllegalArgumentException when the code is not 0..3
     */
    public static CpuState fromCode(final int code) {
        for (final CpuState state : values()) {
            if (state.code == code) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown CPU state code " + code + "; expected 0..3");
    }
}
