package org.latencyserver.agent.profiler;

import java.util.Objects;
import org.latencyserver.core.state.CpuState;

/**
 * The peer agent of a {@code profile measure --peer REF --peer-state STATE} run: a peer agent already
 * running on another host, whose CPU this profiler can neither drive nor read, held by the planner
 * in the state they assert.
 *
 * <p>Immutable and thread-safe.
 *
 * @param reference     the peer agent as given to {@code --peer} (a name with {@code --naming}, a corbaloc/IOR, or a file)
 * @param host          where its reference points, {@code HOST:PORT} as its IIOP profile says, or
 *                      {@code "unknown host"} when the reference carries none
 * @param assertedState the peer host's CPU state the planner asserts ({@code --peer-state}): LOW, MEDIUM or HIGH
 */
record RemotePeer(String reference, String host, CpuState assertedState) {

    /** @throws IllegalArgumentException when a part is missing or the state is UNKNOWN */
    RemotePeer {
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(assertedState, "assertedState");
        if (!assertedState.isKnown()) {
            throw new IllegalArgumentException("a peer state must be LOW, MEDIUM or HIGH");
        }
    }

    /** @return e.g. {@code "the peer agent corbaloc::198.18.0.3:4711/... on 198.18.0.3:4711"}, for the progress and provenance */
    String describe() {
        return "the peer agent " + reference + " on " + host;
    }
}
