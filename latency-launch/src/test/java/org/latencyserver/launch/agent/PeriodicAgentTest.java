package org.latencyserver.launch.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PeriodicAgentTest {

    @Test
    void eachDutyRunsWhenItsOwnTimetableSaysOnAManualClock() {
        final AtomicLong nowNanos = new AtomicLong(0);
        final AtomicInteger fast = new AtomicInteger();
        final AtomicInteger slow = new AtomicInteger();
        final PeriodicAgent agent = PeriodicAgent.named("test-periodic").clock(nowNanos::get)
                .duty(PeriodicDeadline.Kind.FIXED_RATE, 10, 0, fast::incrementAndGet)
                .duty(PeriodicDeadline.Kind.FIXED_DELAY, 25, 25, slow::incrementAndGet)
                .build();
        for (long t = 0; t <= 100; t++) {
            nowNanos.set(t);
            agent.doWork(t);
        }
        assertEquals(11, fast.get(), "at 0, 10, ..., 100");
        assertEquals(4, slow.get(), "at 25, 50, 75, 100");
    }

    @Test
    void aRoundWithNothingDueParksUntilTheEarliestDutyAndTheCloseEndsThePark() throws InterruptedException {
        final CountDownLatch firstRun = new CountDownLatch(1);
        final AtomicInteger runs = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        final PeriodicAgent agent = PeriodicAgent.named("test-park")
                .duty(PeriodicDeadline.Kind.FIXED_RATE, TimeUnit.SECONDS.toNanos(60), 0, () -> {
                    runs.incrementAndGet();
                    firstRun.countDown();
                })
                .onClose(closed::incrementAndGet)
                .build();
        final AgentRunner runner = new AgentRunner(agent, NoIdleStrategy.INSTANCE);
        runner.start();
        assertTrue(firstRun.await(10, TimeUnit.SECONDS));
        final Thread thread = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("test-park")).findFirst()
            .orElseThrow();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(Thread.State.TIMED_WAITING, thread.getState(), "parked until the duty is due, not spinning");
        assertEquals(1, runs.get());
        runner.close();
        assertTrue(runner.closed(), "the close ended the 60 s park");
        assertEquals(1, closed.get());
    }

    @Test
    void interruptOnCloseEndsADutyBlockedInACall() throws InterruptedException {
        final CountDownLatch blocked = new CountDownLatch(1);
        final AtomicInteger interrupted = new AtomicInteger();
        final PeriodicAgent agent = PeriodicAgent.named("test-blocking")
                .duty(PeriodicDeadline.Kind.FIXED_DELAY, TimeUnit.SECONDS.toNanos(1), 0, () -> {
                    blocked.countDown();
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        interrupted.incrementAndGet();
                    }
                })
                .interruptOnClose()
                .build();
        assertTrue(agent.wakesByInterrupt());
        final AgentRunner runner = new AgentRunner(agent, NoIdleStrategy.INSTANCE);
        runner.start();
        assertTrue(blocked.await(10, TimeUnit.SECONDS));
        runner.close();
        assertTrue(runner.closed());
        assertEquals(1, interrupted.get());
    }

    @Test
    void anAgentWithoutDutiesIsRefused() {
        assertThrows(IllegalStateException.class, () -> PeriodicAgent.named("test-empty").build());
    }
}
