package org.latencyserver.core.profile;

/**
 * How large a profile may be: checked by {@link ProfileJson} before it parses (the size) and while it
 * reads (the bins), so an oversized file is refused with its size, not with a parser's or the
 * heap's complaint. The server passes its configured limits; tools use {@link #DEFAULT}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param maxBytes         the largest profile text accepted, in bytes (UTF-8), {@code >= 1}
 * @param maxHistogramBins the most bins one cell's histogram may have, {@code >= 1}
 */
public record ProfileLimits(long maxBytes, int maxHistogramBins) {

    /**
     * The defaults: 64 MiB and 20,000 bins. The thesis's 8 sizes × 6 CPU pairs, every cell at the
     * bin limit, take about 31 MB as {@link ProfileJson#toJson} writes them; the shipped measured
     * profile (at most 1,367 bins a cell) takes 0.6 MB.
     */
    public static final ProfileLimits DEFAULT = new ProfileLimits(64L * 1024 * 1024, 20_000);

    /**
     * @throws IllegalArgumentException when a limit is below 1
     */
    public ProfileLimits {
        if (maxBytes < 1 || maxHistogramBins < 1) {
            throw new IllegalArgumentException("profile limits must be >= 1, were " + maxBytes + " bytes and "
                + maxHistogramBins + " bins");
        }
    }
}
