package org.latencyserver.server.corba;

import java.util.Objects;
import java.util.Optional;
import org.latencyserver.server.engine.EngineCallException;
import org.latencyserver.server.engine.EngineProxy;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.metrics.ServerMetrics;
import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.INTERNAL;
import org.omg.CORBA.SystemException;
import org.omg.CORBA.TRANSIENT;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one path of every write call ({@code UpdateResponse}, {@code PutMibUpdates},
 * {@code submit_measurement}, {@code submit_probe}, {@code load_profile}):
 * <ol>
 *   <li>the call is counted;</li>
 *   <li>its checks run ({@link WriteCall#admit}): the connection, the caller's right to write it, the values;</li>
 *   <li>the update thread applies it; when it gives no answer, the call is answered with CORBA
 *       {@code TRANSIENT} (not applied; the caller may send it again) or {@code INTERNAL} (it ran and failed);</li>
 *   <li>the answer waits until the state file holds the write (also after a refusal, which may have
 *       been preceded by others' changes), so that a server killed after answering still has it;</li>
 *   <li>the update thread's answer is read as accepted or refused ({@link WriteCall#verdict}).</li>
 * </ol>
 * A refusal at any step is counted by its kind and logged ({@link Refusals}), and handed back for the
 * caller's IDL exception, which the servant chooses by operation.
 *
 * <p>Thread-safe: called on the ORB's request threads.
 */
final class WriteCalls {

    /**
     * Minor code of the {@code TRANSIENT} and {@code INTERNAL} a write is answered with when the
     * update thread gave no outcome. 0: the server has no registered vendor minor code set; the
     * completion status says whether the write may have taken effect, and the log says why.
     */
    static final int ENGINE_UNAVAILABLE_MINOR = 0;

    private static final Logger LOG = LoggerFactory.getLogger(WriteCalls.class);
    /** Its own logger, so that the repeated-warning filter keeps this kind apart. */
    private static final Logger UNSAVED_LOG = LoggerFactory.getLogger(WriteCalls.class.getName() + ".unsaved");

    private final EngineProxy engine;
    private final ServerMetrics metrics;
    private final Refusals refusals;
    private final LatencyServiceServant.StateSaver stateSaver;

    /**
     * @param engine     the update thread
     * @param metrics    where calls are counted
     * @param refusals   where refusals are counted and logged
     * @param stateSaver puts an applied write on disk before it is answered
     */
    WriteCalls(final EngineProxy engine, final ServerMetrics metrics, final Refusals refusals,
               final LatencyServiceServant.StateSaver stateSaver) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.refusals = Objects.requireNonNull(refusals, "refusals");
        this.stateSaver = Objects.requireNonNull(stateSaver, "stateSaver");
    }

    /**
     * How a write ended: applied and accepted, with its input and the update thread's answer; or refused.
     *
     * @param input   what passed the checks; null when refused by them
     * @param answer  the update thread's answer; null when refused by the checks
     * @param refusal why refused, already counted and logged; null when accepted
     * @param <I>     the checked input
     * @param <A>     the answer
     */
    record Written<I, A>(I input, A answer, Refusal refusal) {
        /** @return whether the write was refused, by the checks or by the update thread */
        boolean isRefused() {
            return refusal != null;
        }
    }

    /**
     * @param call the write
     * @param <I>  its checked input
     * @param <A>  the update thread's answer
     * @return how it ended
     * @throws SystemException {@code TRANSIENT} or {@code INTERNAL} when the update thread gave no answer
     */
    <I, A> Written<I, A> run(final WriteCall<I, A> call) {
        final Operation operation = call.operation();
        metrics.called(operation);
        final Checked<I> admitted = call.admit();
        if (admitted.isRefused()) {
            return new Written<>(null, null, refusals.record(operation, admitted.refusal()));
        }
        stateSaver.admitWrite(); // a server that may not acknowledge writes now applies nothing
        final A answer;
        try {
            answer = call.apply(engine, admitted.value());
        } catch (EngineCallException e) {
            throw engineUnavailable(operation, e);
        }
        awaitSaved();
        final Optional<Refusal> verdict = call.verdict(admitted.value(), answer);
        return new Written<>(admitted.value(), answer, verdict.map(refusal -> refusals.record(operation, refusal)).orElse(null));
    }

    /**
     * Every applied write ends here before it is answered: the state file must hold it (a refused
     * write may save others' changes; it changed nothing itself).
     */
    private void awaitSaved() {
        if (!stateSaver.awaitSaved(engine.timeoutMillis())) {
            // The write serves (it is applied) and the store keeps retrying; the caller is still
            // answered, since refusing a write that took effect would be worse. Said and counted.
            metrics.unsavedWrite();
            UNSAVED_LOG.error("a write was answered before the state file's journal held it (the append failed or took over {} ms);"
                + " kill -9 now could lose it", engine.timeoutMillis());
        }
    }

    /**
     * The update thread gave no outcome: {@code TRANSIENT} when the write was not applied (time-out,
     * stopping server; the caller may send it again), {@code INTERNAL} when it ran and failed.
     */
    private static SystemException engineUnavailable(final Operation operation, final EngineCallException e) {
        LOG.warn("{} not answered: {}", operation.label(), e.getMessage());
        return e.mayHaveApplied()
            ? new INTERNAL(e.getMessage(), ENGINE_UNAVAILABLE_MINOR, CompletionStatus.COMPLETED_MAYBE)
            : new TRANSIENT(e.getMessage(), ENGINE_UNAVAILABLE_MINOR, CompletionStatus.COMPLETED_NO);
    }
}
