package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The PENDING → RUNNING / PENDING → CANCELLED decision of one command, without a loop. */
class EngineCommandTest {

    /** Generous: only reached when something is broken. */
    private static final long GENEROUS_MILLIS = 30_000;

    private final AtomicInteger runs = new AtomicInteger();

    private EngineCommand<String> command() {
        return new EngineCommand<>("test command", (engine, nowNanos) -> {
            runs.incrementAndGet();
            return "outcome";
        });
    }

    @Test
    void aCancelledCommandCanNeverStart() {
        final EngineCommand<String> command = command();
        assertTrue(command.cancel());
        assertFalse(command.tryStart(), "the update thread must skip a cancelled command");
        assertEquals(EngineCommand.State.CANCELLED, command.state());
        assertEquals(0, runs.get());
    }

    @Test
    void aStartedCommandCanNoLongerBeCancelled() {
        final EngineCommand<String> command = command();
        assertTrue(command.tryStart());
        assertFalse(command.cancel(), "a running command is not the caller's to cancel");
        assertEquals(EngineCommand.State.RUNNING, command.state());
    }

    @Test
    void aWaiterWhoseCommandWasNotTakenInTimeIsToldItWasNotAppliedAndItNeverRuns() {
        final EngineCommand<String> command = command();
        final EngineTimeoutException timedOut = assertThrows(EngineTimeoutException.class, () -> command.await(1));
        assertFalse(timedOut.mayHaveApplied());
        assertTrue(timedOut.getMessage().contains("test command was not applied"), timedOut.getMessage());
        assertFalse(command.tryStart(), "the update thread comes too late and skips it");
        assertEquals(0, runs.get());
    }

    @Test
    void aWaiterWhoseTimeOutPassesWhileItsCommandRunsWaitsForItAndGetsItsOutcome() throws Exception {
        final EngineCommand<String> command = command();
        assertTrue(command.tryStart(), "the update thread has taken it");
        final AtomicReference<Object> answer = new AtomicReference<>();
        final Thread waiter = new Thread(() -> {
            try {
                answer.set(command.await(1));
            } catch (EngineCallException e) {
                answer.set(e);
            }
        });
        waiter.start();
        // WAITING (untimed) is reached only after the 1 ms time-out passed and the cancel lost.
        awaitState(waiter, Thread.State.WAITING);
        command.runStarted(null, 0);
        waiter.join(GENEROUS_MILLIS);
        assertEquals("outcome", answer.get());
        assertEquals(1, runs.get());
    }

    @Test
    void aCommandThatThrowsIsReportedAsRunAndPerhapsApplied() {
        final IllegalStateException thrown = new IllegalStateException("broken");
        final EngineCommand<String> command = new EngineCommand<>("failing command", (engine, nowNanos) -> {
            throw thrown;
        });
        assertTrue(command.tryStart());
        assertSame(thrown, assertThrows(IllegalStateException.class, () -> command.runStarted(null, 0)),
            "the loop sees the failure too, to log and count it");
        final EngineCommandFailedException failed = assertThrows(EngineCommandFailedException.class,
            () -> command.await(GENEROUS_MILLIS));
        assertTrue(failed.mayHaveApplied());
        assertSame(thrown, failed.getCause());
    }

    /** Polls a thread's state; fails only if it is not reached within a generous time. */
    static void awaitState(final Thread thread, final Thread.State state) throws InterruptedException {
        final long deadline = System.nanoTime() + GENEROUS_MILLIS * 1_000_000L;
        while (thread.getState() != state) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(thread.getName() + " never reached " + state + "; it is " + thread.getState());
            }
            Thread.sleep(1);
        }
    }
}
