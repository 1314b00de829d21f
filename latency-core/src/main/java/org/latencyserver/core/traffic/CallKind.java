package org.latencyserver.core.traffic;

import java.util.Optional;

/**
 * Which call an application's round trip uses. Each kind has a stable numeric wire code and a wire
 * word (the configuration's and the IDL's spelling); code 0 is not used, so that an unset field is
 * never read as a kind.
 *
 * <p>Immutable and thread-safe.
 */
public enum CallKind {
    /** {@code EchoPeer.echo} with an octet sequence of the message size: an application's own message. */
    OCTETS(1, "octets"),
    /** The thesis's {@code fm1} calls with arrays of the message size, as the client agent has always probed. */
    ARRAYS(2, "arrays");

    private final int wireCode;
    private final String word;

    CallKind(final int wireCode, final String word) {
        this.wireCode = wireCode;
        this.word = word;
    }

    /** @return the stable numeric code, {@code >= 1} */
    public int wireCode() {
        return wireCode;
    }

    /** @return the wire word: {@code "octets"} or {@code "arrays"} */
    public String word() {
        return word;
    }

    /**
     * @param messageSizeBytes the payload size
     * @return the call made at that size: {@link #ARRAYS} only for the thesis's eight sizes ({@link #isThesisSize}),
     *         where the {@code fm1} arrays exist; {@link #OCTETS} otherwise
     */
    public CallKind madeAt(final int messageSizeBytes) {
        return this == ARRAYS && isThesisSize(messageSizeBytes) ? ARRAYS : OCTETS;
    }

    /**
     * @param messageSizeBytes the payload size
     * @return whether the thesis's {@code fm1} arrays carry that size: 64, 128, … 8192 bytes
     */
    public static boolean isThesisSize(final int messageSizeBytes) {
        return messageSizeBytes >= 64 && messageSizeBytes <= 8192 && Integer.bitCount(messageSizeBytes) == 1;
    }

    /**
     * @param word a wire word, exactly as {@link #word()} gives it
     * @return its kind, or empty when no kind has that word
     */
    public static Optional<CallKind> fromWord(final String word) {
        for (final CallKind kind : values()) {
            if (kind.word.equals(word)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /**
     * @param wireCode a numeric code, as {@link #wireCode()} gives it
     * @return its kind, or empty when no kind has that code
     */
    public static Optional<CallKind> fromWireCode(final int wireCode) {
        for (final CallKind kind : values()) {
            if (kind.wireCode == wireCode) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return word;
    }
}
