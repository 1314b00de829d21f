package org.latencyserver.agent.client;

import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.idl.latency.MeasurementRequest;

/**
 * The traffic a measurement reproduces, from its request's {@code traffic}: bursts of
 * {@code burstRoundTrips} started {@code spacingNanos} apart, {@code pauseNanos} after each burst, each
 * round trip made with {@code call}. A request whose shape is missing or outside its ranges is
 * measured as the classic run (one burst, no spacing of its own, the thesis's arrays) and says why in
 * {@code problem}: the server is another process and the measurement is still worth making.
 *
 * <p>Immutable and thread-safe.
 *
 * @param spacingNanos    start-to-start spacing of a burst's round trips, ns ({@code 0} for the classic run)
 * @param burstRoundTrips round trips per burst; {@link Integer#MAX_VALUE} for one burst
 * @param pauseNanos      pause after each burst, ns
 * @param call            the call each round trip makes
 * @param problem         why the request's shape was not taken; empty when it was
 */
record RequestTraffic(long spacingNanos, int burstRoundTrips, long pauseNanos, CallKind call, String problem) {

    /** The classic run: back to back as the agent's own pacing and the request's min_interval_nanos allow, arrays. */
    static final RequestTraffic CLASSIC = new RequestTraffic(0, Integer.MAX_VALUE, 0, CallKind.ARRAYS, "");

    /**
     * @param request a measurement request
     * @return the traffic its round trips reproduce
     */
    static RequestTraffic of(final MeasurementRequest request) {
        final org.latencyserver.idl.latency.TrafficShape traffic = request.traffic;
        if (traffic == null) {
            return withProblem("the request carries no traffic shape");
        }
        final CallKind call = CallKind.fromWireCode(traffic.call).orElse(null);
        if (call == null) {
            return withProblem("traffic.call " + traffic.call + " is not 1 (octets) or 2 (arrays)");
        }
        try {
            final TrafficShape shape = new TrafficShape(traffic.spacing_micros, traffic.burst_round_trips, traffic.pause_millis, call);
            return new RequestTraffic(shape.spacingMicros() * 1_000L, shape.burstRoundTrips(), shape.pauseMillis() * 1_000_000L,
                shape.call(), "");
        } catch (IllegalArgumentException e) {
            return withProblem("traffic: " + e.getMessage());
        }
    }

    private static RequestTraffic withProblem(final String problem) {
        return new RequestTraffic(CLASSIC.spacingNanos, CLASSIC.burstRoundTrips, CLASSIC.pauseNanos, CLASSIC.call, problem);
    }

    /** @return e.g. "bursts of 50 spaced 2000 us, 1000 ms pause, octets", for the log */
    String describe() {
        return burstRoundTrips == Integer.MAX_VALUE ? "one burst, " + call.word()
            : "bursts of " + burstRoundTrips + " spaced " + spacingNanos / 1_000 + " us, " + pauseNanos / 1_000_000 + " ms pause, "
                + call.word();
    }
}
