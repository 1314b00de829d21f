package org.latencyserver.server.snmp;

import org.snmp4j.Target;

/**
 * A polled source whose utilisation comes from counters read against a baseline: an agent restart
 * and a source gone UNKNOWN act on its {@link CounterUtilisation}.
 *
 * <p>Thread-safety: as {@link PolledSource}.
 *
 * @param <U> the kind of counter utilisation
 */
abstract class CounterSource<U extends CounterUtilisation> extends PolledSource {

    private final U utilisation;

    CounterSource(final String label, final Target<?> target, final int unknownAfterMissedPolls, final U utilisation) {
        super(label, target, unknownAfterMissedPolls);
        this.utilisation = utilisation;
    }

    /** @return the utilisation the readings are given to */
    final U utilisation() {
        return utilisation;
    }

    @Override
    final long counterRefreshNanos() {
        return utilisation.refreshPeriodNanos();
    }

    @Override
    final void restart() {
        utilisation.restart();
    }

    @Override
    final void forget() {
        utilisation.forget();
    }
}
