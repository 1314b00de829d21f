package org.latencyserver.core.state;

import java.util.List;

/**
 * The CPU states of a connection's two ends, (client, peer): the nine combinations of thesis
 * section 4.2.4.
 *
 * <p>The thesis measured only the six distinct unordered pairs (Table 3.2.1-1) and treats a
 * round trip as symmetric: (LOW, HIGH) and (HIGH, LOW) share one profile cell. {@link
 * #canonical()} maps a pair to the profile's key, the lower state first.
 *
 * <p>The IDL encodes a pair as {@code cpu_state = 10 * client.code + peer.code} (e.g. 13 is
 * client LOW, peer HIGH; 0 when either end is unknown); see {@link #code()}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param client the client workstation's state
 * @param peer   the peer workstation's state
 */
public record CpuStatePair(CpuState client, CpuState peer) {

    /** The six distinct unordered pairs in the order of the thesis's Appendix A. */
    public static final List<CpuStatePair> PROFILED_PAIRS = List.of(
        new CpuStatePair(CpuState.LOW, CpuState.LOW),
        new CpuStatePair(CpuState.LOW, CpuState.MEDIUM),
        new CpuStatePair(CpuState.LOW, CpuState.HIGH),
        new CpuStatePair(CpuState.MEDIUM, CpuState.MEDIUM),
        new CpuStatePair(CpuState.MEDIUM, CpuState.HIGH),
        new CpuStatePair(CpuState.HIGH, CpuState.HIGH));

    /**
     * @throws NullPointerException when either state is null
     */
    public CpuStatePair {
        if (client == null || peer == null) {
            throw new NullPointerException("CPU states must not be null");
        }
    }

    /** @return true when both ends are known. */
    public boolean isKnown() {
        return client.isKnown() && peer.isKnown();
    }

    /**
     * @return the pair with the lower state first, the key under which profiles store a cell
     */
    public CpuStatePair canonical() {
        return client.compareTo(peer) <= 0 ? this : new CpuStatePair(peer, client);
    }

    /** @return the IDL encoding {@code 10 * client + peer}, or 0 when either end is unknown. */
    public int code() {
        return isKnown() ? 10 * client.code() + peer.code() : 0;
    }

    /**
     * @param code an IDL encoding {@code 10 * client + peer} with both known
     * @return the pair
     * @throws IllegalArgumentException when the code is not such an encoding
     */
    public static CpuStatePair fromCode(final int code) {
        final CpuStatePair pair = new CpuStatePair(CpuState.fromCode(code / 10), CpuState.fromCode(code % 10));
        if (code < 11 || code > 33 || !pair.isKnown()) {
            throw new IllegalArgumentException("unknown CPU state pair code " + code + "; expected 10 * client + peer, each 1..3");
        }
        return pair;
    }

    /** @return e.g. {@code "0-33/67-100"}, the thesis's way of writing a pair. */
    public String thesisLabel() {
        return client.thesisLabel() + "/" + peer.thesisLabel();
    }

    @Override
    public String toString() {
        return client + "/" + peer;
    }
}
