package org.latencyserver.server.snmp;

import java.util.concurrent.atomic.AtomicBoolean;
import org.snmp4j.PDU;
import org.snmp4j.Target;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.VariableBinding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One polled SNMP source: a workstation's CPU or a switch port. It builds its request, interprets
 * the answer into a utilisation and tracks its health and the agent's sysUpTime (a restart drops
 * the counter baselines).
 *
 * <p>Thread-safety: {@link #accept}/{@link #miss} are serialised by the poller (at most one request
 * in flight per source, guarded by {@link #inFlight}); {@link #percent} may be read from any thread.
 */
abstract class PolledSource {

    private static final Logger LOG = LoggerFactory.getLogger(PolledSource.class);

    /** sysUpTime.0, hundredths of a second since the agent started */
    static final OID SYS_UP_TIME = new OID("1.3.6.1.2.1.1.3.0");

    private final String label;
    private final Target<?> target;
    private final SourceHealth health;
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private long lastUptimeCentis = -1;
    private volatile int percent = -1;
    private volatile boolean settled;
    /**
     * Answers and misses taken so far: the poller delivers this source's connections again when it
     * moved. Written only by the thread that holds {@link #inFlight}, read by the poller's thread.
     */
    private volatile long outcomes;
    /** Monotonic time of the last answer accepted (same writer rule as {@link #outcomes}). */
    private volatile long lastAnswerNanos;

    PolledSource(final String label, final Target<?> target, final int unknownAfterMissedPolls) {
        this.label = label;
        this.target = target;
        this.health = new SourceHealth(unknownAfterMissedPolls);
    }

    /** @return e.g. {@code node ws1} */
    final String label() {
        return label;
    }

    final Target<?> target() {
        return target;
    }

    final AtomicBoolean inFlight() {
        return inFlight;
    }

    /** @return the utilisation to report, 0..100, or −1 when none yet or the source is UNKNOWN */
    final int percent() {
        return percent;
    }

    /**
     * @return whether the source has said something: a value, or UNKNOWN after its misses (until
     *         then its −1 only means "not read yet")
     */
    final boolean settled() {
        return settled;
    }

    /** @return how many answers and misses this source has taken (any thread); it grows with each one */
    final long outcomes() {
        return outcomes;
    }

    /** @return monotonic time ({@code System.nanoTime()} as the poller's clock) of the last answer taken, 0 before one */
    final long lastAnswerNanos() {
        return lastAnswerNanos;
    }

    /** @return a new request PDU (the caller sets its type and sends it) */
    abstract PDU request();

    /**
     * Interprets an answer.
     *
     * @param response the response, non-null, error status already checked
     * @param nowNanos monotonic time of its arrival
     * @return the utilisation now, 0..100, or −1 while there is no baseline yet
     * @throws BadAnswerException when the answer is unusable
     */
    abstract int interpret(PDU response, long nowNanos) throws BadAnswerException;

    /** Drops the counter baselines (the agent restarted). */
    abstract void restart();

    /** Drops baselines and the last value (the source became UNKNOWN; after recovery only fresh deltas count). */
    abstract void forget();

    /** @return how many bindings {@link #request()} asks for (for the length check) */
    abstract int expectedBindings();

    /** @return how often the agent refreshes this source's counters, ns, as the polls saw it; −1 when unknown or none */
    long counterRefreshNanos() {
        return -1;
    }

    /**
     * Checks sysUpTime in the given binding; a smaller value than last time means the agent restarted.
     *
     * @throws BadAnswerException when the binding is not a TimeTicks sysUpTime.0
     */
    final void checkUptime(final VariableBinding binding) throws BadAnswerException {
        final long uptimeCentis = Answers.timeTicks(binding, SYS_UP_TIME);
        if (lastUptimeCentis >= 0 && uptimeCentis < lastUptimeCentis) {
            LOG.info("{}: the SNMP agent restarted (sysUpTime {} -> {} cs); counters start a new baseline", label,
                lastUptimeCentis, uptimeCentis);
            restart();
        }
        lastUptimeCentis = uptimeCentis;
    }

    /**
     * An answer arrived (or the request timed out: {@code response} null).
     *
     * @param response the response, or null after a timeout
     * @param nowNanos monotonic time
     */
    final void accept(final PDU response, final long nowNanos) {
        try {
            Answers.checkResponse(response, expectedBindings());
            final int value = interpret(response, nowNanos);
            if (health.good() == SourceHealth.Change.RECOVERED) {
                LOG.info("{}: SNMP answers again; its utilisation is known again from the next counter change", label);
            }
            percent = value;
            if (value >= 0) {
                settled = true;
            }
        } catch (BadAnswerException e) {
            miss(e.getMessage());
            return; // counted by miss
        }
        lastAnswerNanos = nowNanos;
        outcomes++; // one writer at a time (see the field)
    }

    /**
     * A poll gave nothing usable.
     *
     * @param reason why
     */
    final void miss(final String reason) {
        if (health.miss(reason) == SourceHealth.Change.BECAME_UNKNOWN) {
            LOG.warn("{}: UNKNOWN after {} missed SNMP polls; last: {}", label, health.missesInARow(), reason);
            forget();
            lastUptimeCentis = -1;
            percent = -1;
            settled = true;
        } else if (health.unknown()) {
            percent = -1;
        }
        outcomes++; // one writer at a time (see the field)
    }

    /** @return whether the source is UNKNOWN now */
    final boolean unknown() {
        return health.unknown();
    }
}
