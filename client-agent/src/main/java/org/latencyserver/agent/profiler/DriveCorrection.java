package org.latencyserver.agent.profiler;

/**
 * The duty cycle to give one load driver next so that the core it loads reads its target, from
 * what the last tries read. After one reading: a full step of the miss (a point of duty cycle taken
 * as a point of reading). After two: the secant through the last two (duty cycle, reading) points,
 * its slope kept within [{@value #MIN_SLOPE}, {@value #MAX_SLOPE}] points of reading per point of
 * duty cycle (a slope of zero or below is noise and counts as one), so a step is never longer than
 * the miss. Why: on this 2-core machine a point of duty cycle moved the reading by about 1.9 points
 * (the round trips share the loaded core), so full steps swung around a MEDIUM target of 50 %:
 * 24 % → 73 % → 23 %, and the pair was refused. The floor of one: where a core answered a duty
 * cycle of 0 and 23 with 27 % and 33 % (noise at low load), a shallower secant stepped to 57 and
 * read 82 %.
 *
 * <p>The profiler's runs use it, and so does thesis verification test 4, which drives the same loads.
 *
 * <p>Units: percent of one core, 0..100. Not thread-safe (one profile run).
 */
public final class DriveCorrection {

    static final double MIN_SLOPE = 1;
    static final double MAX_SLOPE = 3;

    private final int targetPercent;
    private int lastDrivePercent = -1;
    private double lastReadingPercent;

    /**
     * @param targetPercent what the loaded core should read
     */
    public DriveCorrection(final int targetPercent) {
        this.targetPercent = targetPercent;
    }

    /**
     * @param drivePercent   the duty cycle the driver ran at
     * @param readingPercent what the core read meanwhile
     * @return the duty cycle to try next, 0..100
     */
    public int next(final int drivePercent, final double readingPercent) {
        double slope = 1;
        if (lastDrivePercent >= 0 && lastDrivePercent != drivePercent) {
            final double secant = (readingPercent - lastReadingPercent) / (drivePercent - lastDrivePercent);
            slope = secant <= 0 ? 1 : Math.max(MIN_SLOPE, Math.min(MAX_SLOPE, secant));
        }
        lastDrivePercent = drivePercent;
        lastReadingPercent = readingPercent;
        return (int) Math.max(0, Math.min(100, Math.round(drivePercent + (targetPercent - readingPercent) / slope)));
    }
}
