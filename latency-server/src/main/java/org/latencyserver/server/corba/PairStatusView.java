package org.latencyserver.server.corba;

import org.latencyserver.idl.latency.PairStatus;
import org.latencyserver.server.standby.StandbyCounters;

/**
 * The IDL's {@code PairStatus} from the hot standby's counters: the role in words
 * ({@value #PRIMARY}, {@value #STANDBY}, {@value #ALONE}) and whether acknowledged writes are
 * held by a standby. Stateless.
 */
final class PairStatusView {

    /** Serves with a standby in its pair's view. */
    static final String PRIMARY = "primary";
    /** Stands by (or waits for the name while taking over, or stepped down): it serves nothing. */
    static final String STANDBY = "standby";
    /** Serves with no standby: no {@code server.standby}, or a pair's view of one. */
    static final String ALONE = "alone";

    private PairStatusView() {
    }

    static PairStatus of(final StandbyCounters counters) {
        final String role = !counters.primary() ? STANDBY : counters.members() >= 2 ? PRIMARY : ALONE;
        return new PairStatus(role, counters.primary() && counters.protectedWrites(), (short) counters.members(),
            counters.unprotectedWrites());
    }
}
