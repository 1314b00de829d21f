package org.latencyserver.agent.measure;

/** A run abandoned because its request's deadline passed before all its round trips were done. */
public final class DeadlineExceededException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * @param recordedRoundTrips done when it was abandoned
     * @param roundTrips         asked for
     */
    public DeadlineExceededException(final long recordedRoundTrips, final int roundTrips) {
        super("the deadline passed after " + recordedRoundTrips + " of " + roundTrips
            + " round trips; fewer round trips or a longer measurement time-out would fit");
    }
}
