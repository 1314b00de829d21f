package org.latencyserver.agent.measure;

import java.util.Arrays;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.orb.Fm1Arrays;

/**
 * Round trips to a peer agent over CORBA. The thesis's eight sizes (64 B … 8 KB) go through its
 * {@code fm1} fixed arrays of longs, exactly as its measurements did; any other size through
 * {@code EchoPeer.echo} with an octet sequence.
 */
public final class CorbaRoundTrips {

    private CorbaRoundTrips() {
    }

    /**
     * Builds the round trip for one message size and checks, once, that the peer really echoes
     * (a peer that answers with something else would make every timing meaningless).
     *
     * @param peer             the peer agent's echo object
     * @param messageSizeBytes payload size, &ge; 1
     * @return the round trip
     * @throws IllegalStateException when the peer's answer is not the payload
     */
    public static RoundTrip to(final EchoPeer peer, final int messageSizeBytes) {
        if (messageSizeBytes < 1) {
            throw new IllegalArgumentException("message size must be >= 1 byte, was " + messageSizeBytes);
        }
        return isThesisSize(messageSizeBytes) ? fixed(peer, messageSizeBytes) : octets(peer, messageSizeBytes);
    }

    /**
     * Builds the round trip of one call: octets always through {@code EchoPeer.echo}; arrays through the thesis's
     * {@code fm1} calls where the size is one of its eight, and through octets otherwise (see {@link #callFor}).
     *
     * @param peer             the peer agent's echo object
     * @param messageSizeBytes payload size, &ge; 1
     * @param call             the call to make
     * @return the round trip, checked once as {@link #to(EchoPeer, int)} checks it
     * @throws IllegalStateException when the peer's answer is not the payload
     */
    public static RoundTrip to(final EchoPeer peer, final int messageSizeBytes, final CallKind call) {
        if (messageSizeBytes < 1) {
            throw new IllegalArgumentException("message size must be >= 1 byte, was " + messageSizeBytes);
        }
        return callFor(messageSizeBytes, call) == CallKind.ARRAYS ? fixed(peer, messageSizeBytes) : octets(peer, messageSizeBytes);
    }

    /**
     * @param messageSizeBytes payload size
     * @param call             the call asked for
     * @return the call made at that size: arrays only for the thesis's eight sizes, octets otherwise
     */
    public static CallKind callFor(final int messageSizeBytes, final CallKind call) {
        return call.madeAt(messageSizeBytes);
    }

    /** @return whether the size goes through the thesis's fm1 arrays */
    public static boolean isThesisSize(final int messageSizeBytes) {
        return CallKind.isThesisSize(messageSizeBytes);
    }

    private static RoundTrip fixed(final EchoPeer peer, final int sizeBytes) {
        final int[][] payload = Fm1Arrays.numbered(sizeBytes);
        if (!Arrays.deepEquals(payload, Fm1Arrays.roundTrip(peer, payload))) {
            throw new IllegalStateException("the peer's fm1 answer for " + sizeBytes + " B is not what was sent");
        }
        // The operation is chosen by an int switch per call: no allocation in the timing loop.
        return () -> Fm1Arrays.roundTrip(peer, payload);
    }

    private static RoundTrip octets(final EchoPeer peer, final int sizeBytes) {
        final byte[] payload = new byte[sizeBytes];
        for (int i = 0; i < sizeBytes; i++) {
            payload[i] = (byte) i;
        }
        if (!Arrays.equals(payload, peer.echo(payload))) {
            throw new IllegalStateException("the peer's echo of " + sizeBytes + " B is not what was sent");
        }
        return () -> peer.echo(payload);
    }
}
