package org.latencyserver.server.engine;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.latencyserver.core.state.MeasurementSchedule;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.PendingMeasurement;

/**
 * The measurement scheduler: when a QoS 3/4 connection's request opens, waits (due) or is re-issued. A request
 * opens when the connection's minimum interval has passed, fewer than {@link EngineSettings#maxConcurrentMeasurements()}
 * are open, fewer than {@link EngineSettings#maxOpenPerClient()} of its client workstation (whose agent measures them
 * one after another), and its round trips fit the budget; else it is due and opens on a later {@link #tick}. One past
 * its deadline is re-issued with a new ticket. Requests are deferred, never dropped.
 *
 * <p>Not thread-safe: owned by the update thread. It follows every row published ({@link #track}) so that a tick
 * costs what is open or due, not the table.
 */
final class MeasurementScheduler {

    /** Publishes a row's new version (the engine's one way to change the table). */
    @FunctionalInterface
    interface RowPublisher {
        /**
         * @param before the row as it is
         * @param after  its new version
         */
        void publish(ConnectionRow before, ConnectionRow after);
    }

    private final ConnectionTable table;
    private final EngineSettings settings;
    private final RoundTripBudget budget;
    private final MeasurementSchedule schedule;
    private final LongSupplier ticketSource;
    private final LongSupplier epochMillis;
    /**
     * The {@code index_ref}s of the rows with a measurement request open or due: all that the
     * periodic duty looks at, so that a tick costs what is pending, not the table (at 25,000
     * connections a scan of every row every 50 ms was the update thread's largest cost).
     */
    private final BitSet openOrDue = new BitSet();
    /** Rows with a measurement request open. */
    private int openRequests;
    /** Open requests by client workstation. */
    private final Map<String, Integer> openByClient = new HashMap<>();

    /**
     * @param table        the table whose rows are scheduled
     * @param settings     limits, interval, dwell, time-out
     * @param ticketSource unguessable non-zero tickets
     * @param epochMillis  wall clock, for the request's display times
     */
    MeasurementScheduler(final ConnectionTable table, final EngineSettings settings, final LongSupplier ticketSource,
                         final LongSupplier epochMillis) {
        this.table = table;
        this.settings = settings;
        this.budget = new RoundTripBudget(settings.budgetRoundTripsPerSecond(), settings.roundTripsPerMeasurement());
        this.schedule = new MeasurementSchedule(settings.minMeasurementIntervalNanos());
        this.ticketSource = ticketSource;
        this.epochMillis = epochMillis;
        for (final ConnectionRow row : table.rows()) {
            track(null, row);
        }
    }

    /** Keeps the counts in step as {@code published} replaces {@code replaced} (null: none). */
    void track(final ConnectionRow replaced, final ConnectionRow published) {
        if (replaced != null && replaced.pending() != null) {
            openRequests--;
            openByClient.merge(replaced.spec().clientNodeName(), -1, (was, minus) -> was + minus == 0 ? null : was + minus);
        }
        if (published.pending() != null) {
            openRequests++;
            openByClient.merge(published.spec().clientNodeName(), 1, Integer::sum);
        }
        openOrDue.set(published.spec().indexRef(),
            published.pending() != null || published.measurementDueNanos() != ConnectionRow.NOT_DUE);
    }

    /** A measurement of the row's state: opened now, or due; before the first result it says what is awaited. */
    ConnectionRow request(final ConnectionRow measured, final long nowNanos) {
        final ConnectionRow row = measured.estimate() != null ? measured : measured.withEstimate(null,
            "connection " + measured.spec().indexRef() + " has not been measured yet: a measurement of "
                + measured.load().cpu().thesisLabel() + " is requested");
        return openOrDefer(row, nowNanos);
    }

    /** Opens the row's measurement request now, or marks it due when the schedule or the limits defer it. */
    ConnectionRow openOrDefer(final ConnectionRow row, final long nowNanos) {
        final MeasurementSchedule.Decision decision = schedule.decide(nowNanos, row.lastMeasurementStartNanos());
        if (!decision.measureNow() || !mayOpen(row.spec().indexRef(), nowNanos)) {
            final long due = decision.measureNow() ? nowNanos : decision.notBeforeNanos();
            return row.withMeasurementRequest(null, due, row.lastMeasurementStartNanos());
        }
        return open(row, nowNanos, 1);
    }

    /**
     * An adaptive connection's new state: measured once it has held for the dwell, so a transient state (one poll of a
     * mixed state while both CPUs change) spends no measurement.
     */
    ConnectionRow dueAfterDwell(final ConnectionRow row, final long nowNanos) {
        final MeasurementSchedule.Decision decision = schedule.decide(nowNanos + settings.dwellNanos(), row.lastMeasurementStartNanos());
        final long dueNanos = decision.measureNow() ? nowNanos + settings.dwellNanos() : decision.notBeforeNanos();
        return row.withMeasurementRequest(null, dueNanos, row.lastMeasurementStartNanos());
    }

    /**
     * The periodic duty: re-issue requests past their deadline (with a new ticket), and open due requests whose time
     * has come and for which the limits have room.
     *
     * @param nowNanos  monotonic time
     * @param publisher publishes each row changed
     * @return how many rows changed
     */
    int tick(final long nowNanos, final RowPublisher publisher) {
        int changed = 0;
        // In index_ref order; publishing a row may clear or set its own bit, which the iteration tolerates.
        for (int indexRef = openOrDue.nextSetBit(0); indexRef >= 0; indexRef = openOrDue.nextSetBit(indexRef + 1)) {
            final ConnectionRow row = table.row((short) indexRef);
            if (row.pending() != null && nowNanos - row.pending().deadlineNanos() > 0) {
                publisher.publish(row, open(row.withMeasurementRequest(null, ConnectionRow.NOT_DUE, row.lastMeasurementStartNanos()),
                    nowNanos, row.pending().attempt() + 1));
                changed++;
            } else if (row.pending() == null && row.measurementDueNanos() != ConnectionRow.NOT_DUE
                && nowNanos - row.measurementDueNanos() >= 0 && mayOpen(row.spec().indexRef(), nowNanos)) {
                publisher.publish(row, open(row, nowNanos, 1));
                changed++;
            }
        }
        return changed;
    }

    private ConnectionRow open(final ConnectionRow row, final long nowNanos, final int attempt) {
        final long nowMillis = epochMillis.getAsLong();
        final long timeoutMillis = settings.measurementTimeoutNanos() / 1_000_000L;
        final String reason = row.learning().nextMeasurementReason() != null ? row.learning().nextMeasurementReason()
            : "load state " + ServingPolicy.label(row.load());
        final PendingMeasurement request = new PendingMeasurement(nextTicket(), settings.roundTripsPerMeasurement(),
            nowNanos, nowNanos + settings.measurementTimeoutNanos(), nowMillis, nowMillis + timeoutMillis, attempt,
            attempt > 1 ? reason + " (re-issued after a time-out, attempt " + attempt + ")" : reason, row.load());
        return row.withMeasurementRequest(request, ConnectionRow.NOT_DUE, nowNanos);
    }

    private long nextTicket() {
        long ticket;
        do {
            ticket = ticketSource.getAsLong();
        } while (ticket == 0);
        return ticket;
    }

    /**
     * Room for one more request: under the concurrency limit, under its client workstation's limit, and the round
     * trips fit the budget (taken if so). A row's own open request, about to be replaced, takes no slot.
     */
    private boolean mayOpen(final short indexRef, final long nowNanos) {
        final ConnectionRow own = table.row(indexRef);
        final int ownOpen = own != null && own.pending() != null ? 1 : 0;
        final int clientOpen = own == null ? 0 : openByClient.getOrDefault(own.spec().clientNodeName(), 0);
        return openRequests - ownOpen < settings.maxConcurrentMeasurements() && clientOpen - ownOpen < settings.maxOpenPerClient()
            && budget.tryTake(settings.roundTripsPerMeasurement(), nowNanos);
    }
}
