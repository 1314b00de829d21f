package org.latencyserver.core.path;

import java.util.Optional;

/**
 * How a path's x % bound was composed from its hops' histograms. Each method has a stable numeric
 * wire code and a wire word, as the served estimate sources do: the word is what an estimate
 * carries and a console matches, the code is never reused for another meaning. Code 0 is not used,
 * so that an unset field is never read as a method.
 *
 * <p>Immutable and thread-safe.
 */
public enum BoundMethod {
    /**
     * The union (Bonferroni) bound: each of k hops at its {@code 1 - (1 - x) / k} quantile, summed.
     * Holds whatever the dependence between hops.
     */
    UNION(1, "union bound"),
    /**
     * The x % quantile of the convolution of the hops' distributions. Holds only if the hops' delays
     * are independent; hops loaded together can make it under-cover.
     */
    INDEPENDENT(2, "independent hops");

    private final int wireCode;
    private final String word;

    BoundMethod(final int wireCode, final String word) {
        this.wireCode = wireCode;
        this.word = word;
    }

    /** @return the stable numeric code, {@code >= 1} */
    public int wireCode() {
        return wireCode;
    }

    /** @return the wire word, e.g. {@code "union bound"} */
    public String word() {
        return word;
    }

    /** @return whether the bound holds whatever the dependence between hops (only {@link #UNION}) */
    public boolean soundUnderAnyDependence() {
        return this == UNION;
    }

    /**
     * @param word a wire word, exactly as {@link #word()} gives it
     * @return its method, or empty when no method has that word
     */
    public static Optional<BoundMethod> fromWord(final String word) {
        for (final BoundMethod method : values()) {
            if (method.word.equals(word)) {
                return Optional.of(method);
            }
        }
        return Optional.empty();
    }

    /**
     * @param wireCode a numeric code, as {@link #wireCode()} gives it
     * @return its method, or empty when no method has that code
     */
    public static Optional<BoundMethod> fromWireCode(final int wireCode) {
        for (final BoundMethod method : values()) {
            if (method.wireCode == wireCode) {
                return Optional.of(method);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return word;
    }
}
