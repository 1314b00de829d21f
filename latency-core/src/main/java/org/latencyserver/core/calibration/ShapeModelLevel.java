package org.latencyserver.core.calibration;

import java.util.Locale;
import java.util.function.DoubleToLongFunction;

/**
 * The level at which the shape model's conformal score quantile is read ({@link ShapeModelBound}): adaptive conformal
 * inference on the model's own bound, learned from the blocks the model learns from, kept per {@link PortBand} (the
 * bands' round trips misfit the model differently) with a connection-wide level the young band borrows from.
 *
 * <p>Before a block teaches the model, each of the three levels — the connection's, the idle band's, the loaded band's —
 * counts the block's round trips above the model's bound for the block's shape and band read at that level's own α
 * (so each tracks its own group's quantile, whatever is served) and moves by the {@link AdaptiveQuantileLevel} rule
 * (same step, cap, floor and ceiling as the histogram levels). The connection's level learns from every block, a band's
 * from its own band's. Served for band {@code L}:
 * <pre>
 *   α_L = w(n_L) α_L,own + (1 − w(n_L)) α_connection        w(n) = n / (n + n0)     ({@link BorrowedLevel#weight})
 * </pre>
 * The model's bound is then {@code B · exp(f(s, L) + q_{1−α_L} σ(s, L))}, {@code α_L} read within
 * {@code [TOP_MISS_FRACTION, maxMissFraction]} ({@link #quantileMissFraction(PortBand)}): an α at or below 0 asks for
 * the top of the kept scores, and no α above the levels' ceiling is served or described. Kept per band only, not per load state: the state's bound {@code B}
 * already carries its state's own level, and a connection's trains split over many states are too few per state to learn
 * a level from.
 *
 * <p>Immutable and thread-safe.
 *
 * @param connection       the level learned from every block
 * @param connectionBlocks blocks it learned from, {@code >= 0}
 * @param idle             the level learned from the blocks sent on a port not loaded
 * @param idleBlocks       blocks it learned from, {@code >= 0}
 * @param loaded           the level learned from the blocks sent on a loaded port
 * @param loadedBlocks     blocks it learned from, {@code >= 0}
 */
public record ShapeModelLevel(AdaptiveQuantileLevel connection, long connectionBlocks, AdaptiveQuantileLevel idle,
                              long idleBlocks, AdaptiveQuantileLevel loaded, long loadedBlocks) {

    /** Smallest α the score quantile is read at: at or below 0 the level asks for the scores' top. */
    public static final double TOP_MISS_FRACTION = 1e-9;

    /**
     * @throws IllegalArgumentException on a null level, a negative count, or levels of different targets
     */
    public ShapeModelLevel {
        if (connection == null || idle == null || loaded == null) {
            throw new IllegalArgumentException("a shape model level needs its connection, idle and loaded levels");
        }
        if (connectionBlocks < 0 || idleBlocks < 0 || loadedBlocks < 0) {
            throw new IllegalArgumentException("a shape model level's block counts must be >= 0, were " + connectionBlocks
                + ", " + idleBlocks + ", " + loadedBlocks);
        }
        if (Math.abs(connection.targetMissFraction() - idle.targetMissFraction()) > 1e-12
            || Math.abs(connection.targetMissFraction() - loaded.targetMissFraction()) > 1e-12) {
            throw new IllegalArgumentException("a shape model level's three levels must share their target");
        }
    }

    /**
     * @param boundPercent the connection's bound, percent, in (0, 100)
     * @return every level at the nominal one, nothing learned
     */
    public static ShapeModelLevel start(final double boundPercent) {
        final AdaptiveQuantileLevel nominal = AdaptiveQuantileLevel.start(boundPercent);
        return new ShapeModelLevel(nominal, 0, nominal, 0, nominal, 0);
    }

    /** @return α_target, the nominal miss fraction */
    public double targetMissFraction() {
        return connection.targetMissFraction();
    }

    /**
     * @param band a port band
     * @return the band's own level
     */
    public AdaptiveQuantileLevel own(final PortBand band) {
        return band == PortBand.LOADED ? loaded : idle;
    }

    /**
     * @param band a port band
     * @return blocks the band's own level learned from
     */
    public long blocks(final PortBand band) {
        return band == PortBand.LOADED ? loadedBlocks : idleBlocks;
    }

    /**
     * @param band a port band
     * @return {@code α_L}: the band's own level shrunk towards the connection's by its blocks
     */
    public double missFraction(final PortBand band) {
        final double w = BorrowedLevel.weight(blocks(band));
        return w * own(band).missFraction() + (1.0 - w) * connection.missFraction();
    }

    /** @return the levels' ceiling, {@link AdaptiveQuantileLevel#maxMissFraction()} (the three share their target) */
    public double maxMissFraction() {
        return connection.maxMissFraction();
    }

    /**
     * @param missFraction    an α as learned (may be at or below 0)
     * @param maxMissFraction the ceiling of the level it was learned by, in (0, 1)
     * @return the α to read the score quantile at: within [{@link #TOP_MISS_FRACTION} (the scores' top),
     *         {@code maxMissFraction}]
     */
    public static double quantileMissFraction(final double missFraction, final double maxMissFraction) {
        return Math.max(TOP_MISS_FRACTION, Math.min(maxMissFraction, missFraction));
    }

    /**
     * @param band a port band
     * @return the α the band's score quantile is read at: {@link #missFraction(PortBand)} within
     *         [{@link #TOP_MISS_FRACTION}, {@link #maxMissFraction()}]; {@link #servedPercent} describes the same α
     */
    public double quantileMissFraction(final PortBand band) {
        return quantileMissFraction(missFraction(band), maxMissFraction());
    }

    /**
     * @param band a port band
     * @return the level served, percent: {@code 100 (1 − α_L)}, α_L at most {@link #maxMissFraction()} and read as 0 at
     *         or below it (the scores' top); in [{@value AdaptiveQuantileLevel#MIN_LEVEL_PERCENT}, 100]
     */
    public double servedPercent(final PortBand band) {
        final double alpha = Math.max(0.0, Math.min(maxMissFraction(), missFraction(band)));
        return Math.max(AdaptiveQuantileLevel.MIN_LEVEL_PERCENT, 100.0 * (1.0 - alpha));
    }

    /**
     * @param band       the band the block was sent in
     * @param roundTrips round trips of the block, {@code >= 0} (0 changes nothing)
     * @param missesAt   round trips of the block above the model's bound for its shape and band read at a miss fraction
     *                   α: each level's α as learned, read within [{@link #TOP_MISS_FRACTION}, its ceiling]
     *                   ({@link #quantileMissFraction(double, double)})
     * @return the levels after the block: the connection's and the band's each learned from the misses at its own α
     */
    public ShapeModelLevel observe(final PortBand band, final long roundTrips, final DoubleToLongFunction missesAt) {
        if (roundTrips <= 0) {
            return this;
        }
        final AdaptiveQuantileLevel nextConnection = connection.observe(roundTrips,
            missesAt.applyAsLong(readAt(connection)), connectionBlocks);
        final AdaptiveQuantileLevel own = own(band);
        final AdaptiveQuantileLevel nextOwn = own.observe(roundTrips, missesAt.applyAsLong(readAt(own)), blocks(band));
        return band == PortBand.LOADED
            ? new ShapeModelLevel(nextConnection, connectionBlocks + 1, idle, idleBlocks, nextOwn, loadedBlocks + 1)
            : new ShapeModelLevel(nextConnection, connectionBlocks + 1, nextOwn, idleBlocks + 1, loaded, loadedBlocks);
    }

    private static double readAt(final AdaptiveQuantileLevel level) {
        return quantileMissFraction(level.missFraction(), level.maxMissFraction());
    }

    /**
     * @param band      the band served
     * @param bandKnown false when no hop is seen loaded but some hop's load is not known
     * @return e.g. "the model's level 97.3 % (idle port, 42 trains)"
     */
    public String description(final PortBand band, final boolean bandKnown) {
        return String.format(Locale.ROOT, "the model's level %.1f %% (%s, %d trains)", servedPercent(band),
            band == PortBand.LOADED ? "loaded port" : bandKnown ? "idle port" : "port not seen loaded", blocks(band));
    }
}
