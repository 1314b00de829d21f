package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.MibUpdate;

/**
 * The typed engine proxy over a real update thread: a command that times out in the queue is
 * cancelled and never applied, one the thread already took completes and reports its outcome, and
 * a stopped loop answers "not applied". The update thread is held inside a command by a listener
 * on a latch; time-outs are generous or only need to pass, never measured.
 */
class EngineProxyTest {

    private static final long GENEROUS_MILLIS = 30_000;
    /**
     * The caller's time-out in the test of a command taken before its caller gave up: long enough
     * for the update thread to take the command first even on a busy machine (with 1 ms the caller
     * could give up, and win the cancel, before the thread was scheduled), short against the hold,
     * which lasts until the caller has passed its time-out and waits untimed.
     */
    private static final long TAKEN_BEFORE_TIMEOUT_MILLIS = 2_000;
    /** The duty never runs between the test's commands. */
    private static final long TICK_NEVER_NANOS = TimeUnit.HOURS.toNanos(1);
    private static final MibReading READING = new MibReading((short) 10, (short) 20, (short) 30);

    private UpdateEngine engine;
    private EngineLoop loop;
    /** index_refs of every row the engine published, in order. */
    private final List<Short> published = new CopyOnWriteArrayList<>();
    /** The update thread waits on {@link #release} inside the publication of a row of this connection. */
    private volatile short holdOn;
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void setUp() {
        engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec(1), 0), ConnectionRow.initial(spec(2), 0))),
            Map.of(), EngineSettings.DEFAULT, () -> 7L, () -> 0L);
        engine.addListener(new EngineListener() {
            @Override
            public void rowChanged(final ConnectionRow before, final ConnectionRow after) {
                published.add(after.spec().indexRef());
                if (after.spec().indexRef() == holdOn) {
                    held.countDown();
                    try {
                        release.await(GENEROUS_MILLIS, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        });
        loop = new EngineLoop(engine, System::nanoTime, TICK_NEVER_NANOS);
    }

    @AfterEach
    void tearDown() {
        release.countDown();
        loop.close();
    }

    private static ConnectionSpec spec(final int indexRef) {
        return new ConnectionSpec((short) indexRef, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2, WorkstationType.TAC_4,
            "port-a", 256, 3, 0, null);
    }

    /** Runs {@code proxy.applyMib} on its own thread; the answer is a Boolean or the exception. */
    private static Thread applyMibOnAnotherThread(final EngineProxy proxy, final short indexRef, final AtomicReference<Object> answer) {
        final Thread caller = new Thread(() -> {
            try {
                answer.set(proxy.applyMib(indexRef, MibUpdate.all(READING)));
            } catch (EngineCallException e) {
                answer.set(e);
            }
        }, "caller of connection " + indexRef);
        caller.start();
        return caller;
    }

    @Test
    void aCommandThatTimesOutInTheQueueIsCancelledAndNeverAppliedLater() throws Exception {
        loop.start();
        holdOn = 1;
        final AtomicReference<Object> first = new AtomicReference<>();
        final Thread firstCaller = applyMibOnAnotherThread(new EngineProxy(loop, GENEROUS_MILLIS), (short) 1, first);
        assertTrue(held.await(GENEROUS_MILLIS, TimeUnit.MILLISECONDS), "the update thread is held inside the first command");

        final EngineTimeoutException timedOut = assertThrows(EngineTimeoutException.class,
            () -> new EngineProxy(loop, 50).applyMib((short) 2, MibUpdate.all(READING)));
        assertFalse(timedOut.mayHaveApplied());

        release.countDown();
        firstCaller.join(GENEROUS_MILLIS);
        assertEquals(Boolean.TRUE, first.get(), "the held command completes");
        // The queue is FIFO: once a later command is answered, the cancelled one was taken off and skipped.
        assertTrue(new EngineProxy(loop, GENEROUS_MILLIS).applyMib((short) 1, MibUpdate.all(MibReading.NONE)));
        assertEquals(1, loop.commandsSkipped());
        assertFalse(published.contains((short) 2), "the engine never saw the cancelled command: " + published);
        assertEquals(MibReading.NONE, loop.query().row((short) 2).latest());
        assertEquals(0, loop.query().row((short) 2).version());
    }

    @Test
    void aCommandTheUpdateThreadTookBeforeItsCallerGaveUpCompletesAndReportsItsOutcome() throws Exception {
        loop.start();
        holdOn = 1;
        final AtomicReference<Object> answer = new AtomicReference<>();
        final Thread caller = applyMibOnAnotherThread(new EngineProxy(loop, TAKEN_BEFORE_TIMEOUT_MILLIS), (short) 1, answer);
        assertTrue(held.await(GENEROUS_MILLIS, TimeUnit.MILLISECONDS), "the update thread is running the command");
        // An untimed wait is reached only after the caller's time-out passed and its cancel lost.
        EngineCommandTest.awaitState(caller, Thread.State.WAITING);

        release.countDown();
        caller.join(GENEROUS_MILLIS);
        assertEquals(Boolean.TRUE, answer.get(), "the caller is told the outcome, not a time-out");
        assertEquals(READING, loop.query().row((short) 1).latest());
        assertEquals(0, loop.commandsSkipped());
    }

    @Test
    void aStoppedLoopAnswersThatTheCommandWasNotApplied() {
        loop.start();
        loop.close();
        final EngineStoppedException stopped = assertThrows(EngineStoppedException.class,
            () -> new EngineProxy(loop, GENEROUS_MILLIS).applyMib((short) 1, MibUpdate.all(READING)));
        assertFalse(stopped.mayHaveApplied());
        assertFalse(new EngineProxy(loop).post(new Command.PolledMib((short) 1, MibUpdate.all(READING), Long.MIN_VALUE, answered -> { })), "a posted reading is dropped, and says so");
        assertEquals(MibReading.NONE, loop.query().row((short) 1).latest());
    }

    @Test
    void aCommandStillQueuedWhenTheLoopStopsIsCancelledAndItsCallerToldAtOnce() throws Exception {
        // Never started: the command can only wait in the queue.
        final AtomicReference<Object> answer = new AtomicReference<>();
        final Thread caller = applyMibOnAnotherThread(new EngineProxy(loop, TimeUnit.HOURS.toMillis(1)), (short) 1, answer);
        EngineCommandTest.awaitState(caller, Thread.State.TIMED_WAITING);

        loop.close();
        caller.join(GENEROUS_MILLIS);
        assertFalse(caller.isAlive(), "the caller did not wait out its hour");
        assertInstanceOf(EngineStoppedException.class, answer.get());
        assertEquals(MibReading.NONE, loop.query().row((short) 1).latest());
    }

    @Test
    void eachCommandAnswersWithTheEnginesTypedOutcome() throws Exception {
        loop.start();
        final EngineProxy proxy = new EngineProxy(loop, GENEROUS_MILLIS);
        assertFalse(proxy.applyMib((short) 9, MibUpdate.all(READING)), "no connection 9");
        final SubmitOutcome noTicket = proxy.submitMeasurement((short) 1, 99, null, "agent");
        assertEquals(Refusal.Kind.BAD_TICKET, noTicket.kind(), noTicket.reason());
        assertTrue(noTicket.reason().contains("no measurement is pending for connection 1"), noTicket.reason());
        assertEquals(Refusal.Kind.UNKNOWN_CONNECTION,
            proxy.submitThesisResponse((short) 9, 1f, 0f, 2f, 0.5f, (short) 1).kind());
    }
}
