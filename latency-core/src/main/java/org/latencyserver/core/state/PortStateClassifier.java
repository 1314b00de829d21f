package org.latencyserver.core.state;

/**
 * Classifies a switch port utilisation into {@link PortState}, with hysteresis on the NORMAL /
 * LOADED boundary.
 *
 * <p>The thesis's state changes (section 4.2.4): crossing 90 % either way, and any change while
 * above 90 %. Utilisations are rounded to whole percent, so a change above 90 % is a change of at
 * least one point. Hysteresis: from NORMAL the port becomes LOADED only at
 * {@code u >= 90.5 + band/2}; from LOADED it returns to NORMAL only below {@code 90.5 − band/2}.
 * While the band holds a port LOADED below 91 %, its state reads LOADED 91 %, the lowest loaded
 * value (the IDL has no loaded state below 91).
 *
 * <p>With {@link PortBands} other than {@link PortBands#THESIS} a loaded port's state is its
 * band (named by the band's upper edge), and the same hysteresis holds at every band boundary:
 * the state moves up a band only at {@code u >= edge + 0.5 + band/2} and down only below
 * {@code edge + 0.5 − band/2} of the boundary crossed, so a port jittering a point either side of
 * a band edge stays one state.
 *
 * <p>A reading of {@link PortState#SATURATED_CODE} (101) says the port is at its rate and dropping
 * (a poller that sees the port's discard counter move while it carries its rate reports it so). With
 * bands it is the state SATURATED; with the thesis's states, LOADED 100 %.
 *
 * <p>Immutable and thread-safe.
 */
public final class PortStateClassifier {

    /** The thesis's threshold: the port is LOADED above it, percent. */
    public static final int LOADED_ABOVE_PERCENT = 90;
    /** The default hysteresis band around the threshold, percentage points. */
    public static final double DEFAULT_HYSTERESIS_BAND_PERCENT = 1.0;

    private final double boundaryPercent;
    private final double halfBand;
    private final PortBands bands;

    /**
     * @param loadedAbovePercent    the threshold, must be 90 (the IDL encodes LOADED as 91..100)
     * @param hysteresisBandPercent total band width, percentage points, {@code >= 0} and below 10
     * @throws IllegalArgumentException naming the bad value
     */
    public PortStateClassifier(final int loadedAbovePercent, final double hysteresisBandPercent) {
        this(loadedAbovePercent, hysteresisBandPercent, PortBands.THESIS);
    }

    /**
     * @param loadedAbovePercent    the threshold, must be 90 (the IDL encodes LOADED as 91..100)
     * @param hysteresisBandPercent total band width around each boundary, percentage points, {@code >= 0}
     *                              and below 10
     * @param bands                 how the loaded range is divided into states
     * @throws IllegalArgumentException naming the bad value
     */
    public PortStateClassifier(final int loadedAbovePercent, final double hysteresisBandPercent, final PortBands bands) {
        if (bands == null) {
            throw new IllegalArgumentException("port bands must not be null");
        }
        this.bands = bands;
        if (loadedAbovePercent != 90) {
            // The IDL's port_state encodes LOADED as 91..100: the threshold is part of the contract.
            throw new IllegalArgumentException("the port threshold is fixed at 90 % by the IDL encoding, was " + loadedAbovePercent);
        }
        if (!(hysteresisBandPercent >= 0 && hysteresisBandPercent < 10)) {
            throw new IllegalArgumentException("port hysteresis band must be 0..10 points, was " + hysteresisBandPercent);
        }
        this.boundaryPercent = loadedAbovePercent + 0.5;
        this.halfBand = hysteresisBandPercent / 2.0;
    }

    /**
     * @param hysteresisBandPercent total band width, percentage points, {@code >= 0} and below 10
     * @throws IllegalArgumentException naming the bad value
     */
    public PortStateClassifier(final double hysteresisBandPercent) {
        this(LOADED_ABOVE_PERCENT, hysteresisBandPercent);
    }

    /** @return the thesis threshold (90 %) with the default 1-point band */
    public static PortStateClassifier withDefaults() {
        return new PortStateClassifier(LOADED_ABOVE_PERCENT, DEFAULT_HYSTERESIS_BAND_PERCENT);
    }

    /**
     * @param utilisationPercent port utilisation, percent, 0..100, or 101: at its rate and dropping
     * @param current            the state now (UNKNOWN or null when there is none: plain threshold 90.5)
     * @return the new state: NORMAL, or LOADED at the utilisation rounded to whole percent (at least 91), or
     *         at its band's upper edge with bands
     * @throws IllegalArgumentException when the utilisation is NaN or outside 0..100
     */
    public PortState classify(final double utilisationPercent, final PortState current) {
        if (utilisationPercent == PortState.SATURATED_CODE) {
            return bands.isEveryPercent() ? PortState.loaded(100) : PortState.SATURATED;
        }
        if (!(utilisationPercent >= 0.0 && utilisationPercent <= 100.0)) {
            throw new IllegalArgumentException("port utilisation must be 0..100 % (or 101: saturated), was " + utilisationPercent);
        }
        final boolean wasLoaded = current != null && current.isLoaded();
        final boolean wasKnown = current != null && current.kind() != PortState.Kind.UNKNOWN;
        final double threshold = !wasKnown ? boundaryPercent : wasLoaded ? boundaryPercent - halfBand : boundaryPercent + halfBand;
        if (utilisationPercent < threshold) {
            return PortState.NORMAL;
        }
        final int wholePercent = Math.max(91, (int) Math.round(utilisationPercent));
        if (bands.isEveryPercent()) {
            return PortState.loaded(wholePercent);
        }
        final int plainBand = bands.bandOf(wholePercent);
        if (!wasLoaded || !bands.upperPercents().contains(current.utilisationPercent())) {
            return PortState.loaded(plainBand);
        }
        final int currentBand = current.utilisationPercent();
        if (plainBand > currentBand) {
            // Up only when clearly past the boundary above the current band.
            return utilisationPercent >= currentBand + 0.5 + halfBand ? PortState.loaded(plainBand) : current;
        }
        if (plainBand < currentBand) {
            final int lowerEdgeBoundary = bands.lowerPercentOf(currentBand) - 1;
            return utilisationPercent < lowerEdgeBoundary + 0.5 - halfBand ? PortState.loaded(plainBand) : current;
        }
        return current;
    }

    /** @return how the loaded range is divided into states */
    public PortBands bands() {
        return bands;
    }
}
