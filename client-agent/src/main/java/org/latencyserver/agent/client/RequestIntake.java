package org.latencyserver.agent.client;

import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.latencyserver.idl.latency.MeasurementRequest;

/**
 * Which requests the agent takes, and in which order it measures them: the agent's control logic
 * without CORBA. A request (pushed or polled) is taken when it is for a node this agent measures
 * for, carries a ticket, has time left and was not taken before; taken requests are measured
 * first come, first served. Deadlines are local: the receipt time on the injected monotonic clock
 * plus the request's {@code remaining_millis} ({@link ReceivedRequest}), never the server's epoch
 * times against this workstation's wall clock.
 *
 * <p>Thread-safe: {@link #offer} is called from ORB threads and the control thread, {@link #next}
 * from the measuring thread.
 */
final class RequestIntake {

    /** What became of an offered request. */
    enum Decision {
        /** queued for measuring */
        TAKEN,
        /** null, or for another node's agent */
        NOT_OURS,
        /** without a ticket: the server does not let this agent measure it */
        NO_TICKET,
        /** no time left when it arrived */
        EXPIRED,
        /** this ticket was taken before (a request polled again) */
        ALREADY_TAKEN
    }

    /** How long a taken ticket is remembered past its deadline, so that a late poll does not take it again. */
    static final long FORGET_AFTER_NANOS = 60_000_000_000L;

    private final Predicate<String> measuresFor;
    private final LongSupplier nanoTime;
    private final BlockingQueue<ReceivedRequest> queue = new LinkedBlockingQueue<>();
    /** Tickets taken, with their local deadlines (ns), so a request polled again is not measured twice. */
    private final Map<Long, Long> takenTickets = new ConcurrentHashMap<>();

    /**
     * @param measuresFor whether this agent measures for a client node
     * @param nanoTime    the monotonic clock, ns ({@code System::nanoTime})
     */
    RequestIntake(final Predicate<String> measuresFor, final LongSupplier nanoTime) {
        this.measuresFor = measuresFor;
        this.nanoTime = nanoTime;
    }

    /**
     * Takes a request on receipt: its deadline is counted from now on the injected clock.
     *
     * @param request the request, pushed or polled
     * @return what became of it
     */
    Decision offer(final MeasurementRequest request) {
        if (request == null || !measuresFor.test(request.client_node_name)) {
            return Decision.NOT_OURS;
        }
        if (request.ticket == 0) {
            return Decision.NO_TICKET;
        }
        final ReceivedRequest received = ReceivedRequest.receivedAt(request, nanoTime.getAsLong());
        if (received.expired(nanoTime.getAsLong())) {
            return Decision.EXPIRED;
        }
        if (takenTickets.putIfAbsent(request.ticket, received.deadlineNanos()) != null) {
            return Decision.ALREADY_TAKEN;
        }
        queue.add(received);
        return Decision.TAKEN;
    }

    /**
     * @param timeout how long to wait for one
     * @param unit    its unit
     * @return the next taken request, oldest first (its deadline may have passed while it waited:
     *         see {@link #expired}); null when none came in time
     * @throws InterruptedException when interrupted while waiting
     */
    ReceivedRequest next(final long timeout, final TimeUnit unit) throws InterruptedException {
        return queue.poll(timeout, unit);
    }

    /**
     * @param received a taken request
     * @return whether its deadline has come by the injected clock
     */
    boolean expired(final ReceivedRequest received) {
        return received.expired(nanoTime.getAsLong());
    }

    /**
     * @param received a taken request
     * @return the time left until its deadline by the injected clock, ms; negative once past
     */
    long remainingMillis(final ReceivedRequest received) {
        return received.remainingMillis(nanoTime.getAsLong());
    }

    /**
     * How long to wait before retrying a failed call for a taken request: the back-off's delay, but
     * never past the request's deadline, so that the agent gives up at the deadline and not up to a
     * back-off delay after it.
     *
     * @param received     a taken request
     * @param backoffMillis the back-off's next delay, ms
     * @return the wait, ms, 0 once the deadline has come
     */
    long retryDelayMillis(final ReceivedRequest received, final long backoffMillis) {
        return Math.max(0, Math.min(backoffMillis, remainingMillis(received)));
    }

    /** Forgets tickets whose deadline passed more than a minute ago. */
    void forgetExpiredTickets() {
        final long nowNanos = nanoTime.getAsLong();
        takenTickets.values().removeIf(deadlineNanos -> nowNanos - deadlineNanos > FORGET_AFTER_NANOS);
    }

    /** @return how many tickets are remembered as taken */
    int rememberedTickets() {
        return takenTickets.size();
    }

    /** @return how many taken requests wait to be measured */
    int waiting() {
        return queue.size();
    }
}
