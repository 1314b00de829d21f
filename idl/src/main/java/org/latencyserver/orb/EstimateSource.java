package org.latencyserver.orb;

import java.util.Optional;

/**
 * Where the data behind a served estimate come from. Each source has a stable numeric wire code and a wire
 * word: the word is what the extended interface's {@code Estimate.source} carries, what the status console
 * matches and what a state file holds; the code is never reused for another meaning. Both are listed in
 * {@code LatencyService.idl}.
 *
 * <p>Immutable and thread-safe.
 */
public enum EstimateSource {
    /** Nothing served. */
    NONE(0, ""),
    /** A measurement of the current load state. */
    MEASUREMENT(1, "measurement"),
    /** The last measurement of the current load state, taken when the connection was last in it. */
    REMEMBERED(2, "remembered measurement"),
    /**
     * On a loaded port (a band, or saturated): the connection's own probe windows of the current port state, CPU
     * states pooled — what the queue does now; the data's time is the newest window's.
     */
    BAND_PROBES(3, "band probes"),
    /** A profile cell of the current load state. */
    PROFILE(4, "profile"),
    /** A measured connection in a load state it was never measured in: its profile's cell. */
    PROFILE_FALLBACK(5, "profile fallback"),
    /** Thesis semantics ({@code calibration: thesis}): what was measured in the previous load state, until the new measurement. */
    PREVIOUS_STATE(6, "previous state's measurement");

    private final int wireCode;
    private final String word;

    EstimateSource(final int wireCode, final String word) {
        this.wireCode = wireCode;
        this.word = word;
    }

    /** @return the stable numeric code, 0 for {@link #NONE} */
    public int wireCode() {
        return wireCode;
    }

    /** @return the wire word, e.g. {@code "remembered measurement"}; empty for {@link #NONE} */
    public String word() {
        return word;
    }

    /** @return whether the data belong to the connection's current load state (its own measurement, profile cell or port probes) */
    public boolean ofCurrentState() {
        return this == MEASUREMENT || this == REMEMBERED || this == PROFILE || this == BAND_PROBES;
    }

    /** @return whether the data are a measurement the connection made in the current load state (now or earlier) */
    public boolean measured() {
        return this == MEASUREMENT || this == REMEMBERED;
    }

    /**
     * @param word a wire word, exactly as {@link #word()} gives it
     * @return its source, or empty when no source has that word
     */
    public static Optional<EstimateSource> fromWord(final String word) {
        for (final EstimateSource source : values()) {
            if (source.word.equals(word)) {
                return Optional.of(source);
            }
        }
        return Optional.empty();
    }

    /**
     * @param wireCode a numeric code, as {@link #wireCode()} gives it
     * @return its source, or empty when no source has that code
     */
    public static Optional<EstimateSource> fromWireCode(final int wireCode) {
        for (final EstimateSource source : values()) {
            if (source.wireCode == wireCode) {
                return Optional.of(source);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return word;
    }
}
