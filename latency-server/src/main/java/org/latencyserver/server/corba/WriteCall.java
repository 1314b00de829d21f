package org.latencyserver.server.corba;

import java.util.Optional;
import org.latencyserver.server.engine.EngineCallException;
import org.latencyserver.server.engine.EngineProxy;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.metrics.Operation;

/**
 * What one write call brings to {@link WriteCalls#run}: its checks, its command to the update thread,
 * and how it reads the engine's answer. The template does the rest, in the same order for every write.
 *
 * @param <I> the input once it passed the checks
 * @param <A> what the update thread answers
 */
interface WriteCall<I, A> {

    /** @return the IDL operation, for counting and refusals */
    Operation operation();

    /**
     * The call's checks, in the order the caller is to hear of them: the connection, the caller's right
     * to write it (role, TLS identity, node), then the values. Runs on the ORB's request thread.
     *
     * @return the input that passed, or the first refusal
     */
    Checked<I> admit();

    /**
     * @param engine the update thread
     * @param input  what passed the checks
     * @return the update thread's answer
     * @throws EngineCallException when the update thread gave no answer
     */
    A apply(EngineProxy engine, I input) throws EngineCallException;

    /**
     * @param input  what was applied
     * @param answer the update thread's answer
     * @return the refusal the answer means, as the caller is to hear it; empty when it was accepted
     */
    Optional<Refusal> verdict(I input, A answer);

    /** The command to the update thread. */
    @FunctionalInterface
    interface Apply<I, A> {
        A to(EngineProxy engine, I input) throws EngineCallException;
    }

    /** How the update thread's answer is read. */
    @FunctionalInterface
    interface Verdict<I, A> {
        Optional<Refusal> of(I input, A answer);
    }

    /** The checks. */
    @FunctionalInterface
    interface Admit<I> {
        Checked<I> check();
    }

    /**
     * @param operation the IDL operation
     * @param admit     its checks
     * @param apply     its command to the update thread
     * @param verdict   how its answer is read
     * @param <I>       the checked input
     * @param <A>       the answer
     * @return the write call
     */
    static <I, A> WriteCall<I, A> of(final Operation operation, final Admit<I> admit, final Apply<I, A> apply,
                                     final Verdict<I, A> verdict) {
        return new WriteCall<>() {
            @Override
            public Operation operation() {
                return operation;
            }

            @Override
            public Checked<I> admit() {
                return admit.check();
            }

            @Override
            public A apply(final EngineProxy engine, final I input) throws EngineCallException {
                return apply.to(engine, input);
            }

            @Override
            public Optional<Refusal> verdict(final I input, final A answer) {
                return verdict.of(input, answer);
            }
        };
    }
}
