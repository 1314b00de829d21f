package org.latencyserver.launch.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class AgentRunnerTest {

    /** Records on which thread each callback ran; optionally fails in doWork. */
    private static class RecordingAgent implements Agent {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final AtomicReference<Thread> startThread = new AtomicReference<>();
        final AtomicReference<Thread> closeThread = new AtomicReference<>();
        final AtomicInteger rounds = new AtomicInteger();
        final CountDownLatch enoughRounds;

        RecordingAgent(final int rounds) {
            this.enoughRounds = new CountDownLatch(rounds);
        }

        @Override
        public void onStart() {
            startThread.set(Thread.currentThread());
            calls.add("start");
        }

        @Override
        public int doWork(final long nowNanos) throws Exception {
            rounds.incrementAndGet();
            enoughRounds.countDown();
            return 0;
        }

        @Override
        public void onClose() {
            closeThread.set(Thread.currentThread());
            calls.add("close");
        }

        @Override
        public String roleName() {
            return "test-agent";
        }
    }

    @Test
    void startAndCloseRunOnTheAgentsOwnDaemonThreadNamedAfterItsRole() throws InterruptedException {
        final RecordingAgent agent = new RecordingAgent(3);
        final AgentRunner runner = new AgentRunner(agent, new SleepingIdleStrategy(Duration.ofMillis(1)));
        runner.start();
        assertTrue(agent.enoughRounds.await(10, TimeUnit.SECONDS));

        runner.close();

        assertTrue(runner.closed());
        assertFalse(runner.running());
        assertEquals(List.of("start", "close"), agent.calls);
        assertEquals("test-agent", agent.startThread.get().getName());
        assertTrue(agent.startThread.get().isDaemon());
        assertTrue(agent.closeThread.get() == agent.startThread.get());
        final int roundsAtClose = agent.rounds.get();
        Thread.sleep(20);
        assertEquals(roundsAtClose, agent.rounds.get(), "no round after close");
    }

    @Test
    void aCloseWakesALongParkAtOnce() throws InterruptedException {
        final RecordingAgent agent = new RecordingAgent(1);
        final AgentRunner runner = new AgentRunner(agent, new SleepingIdleStrategy(Duration.ofSeconds(60)));
        runner.start();
        assertTrue(agent.enoughRounds.await(10, TimeUnit.SECONDS));
        runner.close();
        assertTrue(runner.closed(), "the thread ended within the close's wait, not after its 60 s park");
    }

    @Test
    void aCloseInterruptsAnAgentThatWaitsInsideDoWork() throws InterruptedException {
        final BlockingQueue<String> commands = new LinkedBlockingQueue<>();
        final CountDownLatch waiting = new CountDownLatch(1);
        final AtomicInteger interrupted = new AtomicInteger();
        final Agent taker = new Agent() {
            @Override
            public int doWork(final long nowNanos) throws InterruptedException {
                waiting.countDown();
                try {
                    return commands.poll(60, TimeUnit.SECONDS) == null ? 0 : 1;
                } catch (InterruptedException e) {
                    interrupted.incrementAndGet();
                    throw e;
                }
            }

            @Override
            public String roleName() {
                return "test-taker";
            }

            @Override
            public boolean wakesByInterrupt() {
                return true;
            }
        };
        final AgentRunner runner = new AgentRunner(taker, NoIdleStrategy.INSTANCE);
        runner.start();
        assertTrue(waiting.await(10, TimeUnit.SECONDS));
        Thread.sleep(20);

        runner.close();

        assertTrue(runner.closed());
        assertEquals(1, interrupted.get());
        assertEquals(0, runner.errors().totalCount(), "an interrupt by close is no error");
    }

    @Test
    void aClosesInterruptNeverReachesOnClose() throws InterruptedException {
        final CountDownLatch looping = new CountDownLatch(1);
        final AtomicInteger interruptedInClose = new AtomicInteger();
        final AtomicInteger closedCalls = new AtomicInteger();
        final Agent busy = new Agent() {
            @Override
            public int doWork(final long nowNanos) {
                looping.countDown();
                return 1;
            }

            @Override
            public void onCloseRequested() {
                try {
                    Thread.sleep(50); // the agent's thread is in onClose by the time the close would interrupt
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void onClose() {
                closedCalls.incrementAndGet();
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    interruptedInClose.incrementAndGet();
                }
            }

            @Override
            public String roleName() {
                return "test-busy";
            }

            @Override
            public boolean wakesByInterrupt() {
                return true;
            }
        };
        final AgentRunner runner = new AgentRunner(busy, NoIdleStrategy.INSTANCE);
        runner.start();
        assertTrue(looping.await(10, TimeUnit.SECONDS));
        runner.close();
        assertTrue(runner.closed());
        assertEquals(1, closedCalls.get());
        assertEquals(0, interruptedInClose.get());
    }

    @Test
    void anAgentThatThrowsKeepsRunningAndEachDistinctErrorIsCountedOnce() throws InterruptedException {
        final CountDownLatch tenRounds = new CountDownLatch(10);
        final AtomicInteger rounds = new AtomicInteger();
        final Agent failing = new Agent() {
            @Override
            public int doWork(final long nowNanos) {
                tenRounds.countDown();
                if (rounds.incrementAndGet() % 2 == 0) {
                    throw new IllegalStateException("even round");
                }
                throw new IllegalArgumentException("odd round");
            }

            @Override
            public String roleName() {
                return "test-failing";
            }
        };
        final AgentRunner runner = new AgentRunner(failing, new SleepingIdleStrategy(Duration.ofMillis(1)));
        runner.start();
        assertTrue(tenRounds.await(10, TimeUnit.SECONDS), "the agent kept running after it threw");
        runner.close();

        final DistinctErrorLog errors = runner.errors();
        assertEquals(2, errors.distinctCount());
        assertEquals(rounds.get(), errors.totalCount());
        assertEquals(List.of(IllegalArgumentException.class.getName(), IllegalStateException.class.getName()),
                errors.snapshot().stream().map(count -> count.key().className()).toList());
        assertTrue(errors.snapshot().get(0).count() >= 5);
    }

    @Test
    void aFailedRoundPausesItsOwnTimeEvenWithoutAnIdleStrategy() throws InterruptedException {
        final AtomicInteger rounds = new AtomicInteger();
        final Agent failing = new Agent() {
            @Override
            public int doWork(final long nowNanos) {
                rounds.incrementAndGet();
                throw new IllegalStateException("bug");
            }

            @Override
            public String roleName() {
                return "test-pausing";
            }
        };
        final AgentRunner runner = new AgentRunner(failing, NoIdleStrategy.INSTANCE).pauseAfterFailure(Duration.ofMillis(100));
        final long startNanos = System.nanoTime();
        runner.start();
        Thread.sleep(250);
        runner.close();
        // At most one round per pause, however long the sleep took on a busy machine.
        final long pauses = (System.nanoTime() - startNanos) / TimeUnit.MILLISECONDS.toNanos(100);
        assertTrue(rounds.get() >= 1 && rounds.get() <= pauses + 1, rounds.get() + " rounds in " + pauses + " pauses");
        assertEquals(rounds.get(), runner.errors().totalCount());
        assertEquals(1, runner.errors().distinctCount());
    }

    @Test
    void aFailingStartSkipsTheRoundsButStillCloses() throws InterruptedException {
        final RecordingAgent agent = new RecordingAgent(1) {
            @Override
            public void onStart() {
                throw new IllegalStateException("cannot open");
            }
        };
        final AgentRunner runner = new AgentRunner(agent, new SleepingIdleStrategy(Duration.ofMillis(1)));
        runner.start();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!runner.closed() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(runner.closed());
        assertEquals(0, agent.rounds.get());
        assertEquals(List.of("close"), agent.calls);
        assertEquals(1, runner.errors().totalCount());
        runner.close();
    }

    @Test
    void aRunnerClosedBeforeItStartedClosesItsAgentOnTheClosingThread() {
        final RecordingAgent agent = new RecordingAgent(1);
        final AgentRunner runner = new AgentRunner(agent, NoIdleStrategy.INSTANCE);
        runner.close();
        runner.close();
        assertEquals(List.of("close"), agent.calls);
        assertTrue(agent.closeThread.get() == Thread.currentThread());
        assertTrue(runner.closed());
    }

    @Test
    void aStopRequestedByTheAgentItselfEndsTheLoop() throws InterruptedException {
        final AtomicReference<AgentRunner> self = new AtomicReference<>();
        final CountDownLatch closed = new CountDownLatch(1);
        final AtomicInteger rounds = new AtomicInteger();
        final Agent once = new Agent() {
            @Override
            public int doWork(final long nowNanos) {
                rounds.incrementAndGet();
                self.get().requestStop();
                return 1;
            }

            @Override
            public void onClose() {
                closed.countDown();
            }

            @Override
            public String roleName() {
                return "test-once";
            }
        };
        self.set(new AgentRunner(once, NoIdleStrategy.INSTANCE));
        self.get().start();
        assertTrue(closed.await(10, TimeUnit.SECONDS));
        assertEquals(1, rounds.get());
        self.get().close();
    }

    @Test
    void closeAllWakesEveryRunnerBeforeWaitingForAny() throws InterruptedException {
        final CountDownLatch bothWaiting = new CountDownLatch(2);
        final Agent[] takers = new Agent[2];
        for (int i = 0; i < 2; i++) {
            final String role = "test-taker-" + i;
            takers[i] = new Agent() {
                @Override
                public int doWork(final long nowNanos) throws InterruptedException {
                    bothWaiting.countDown();
                    Thread.sleep(60_000);
                    return 0;
                }

                @Override
                public String roleName() {
                    return role;
                }

                @Override
                public boolean wakesByInterrupt() {
                    return true;
                }
            };
        }
        final AgentRunner first = new AgentRunner(takers[0], NoIdleStrategy.INSTANCE);
        final AgentRunner second = new AgentRunner(takers[1], NoIdleStrategy.INSTANCE);
        first.start();
        second.start();
        assertTrue(bothWaiting.await(10, TimeUnit.SECONDS));
        AgentRunner.closeAll(first, second);
        assertTrue(first.closed() && second.closed(), "both threads ended within the close's wait");
    }

    @Test
    void eachRoundGetsTheRunnersClock() throws InterruptedException {
        final AtomicInteger ticks = new AtomicInteger(100);
        final List<Long> seen = new CopyOnWriteArrayList<>();
        final CountDownLatch threeRounds = new CountDownLatch(3);
        final Agent clocked = new Agent() {
            @Override
            public int doWork(final long nowNanos) {
                seen.add(nowNanos);
                threeRounds.countDown();
                return 1;
            }

            @Override
            public String roleName() {
                return "test-clocked";
            }
        };
        final AgentRunner runner = new AgentRunner(clocked, new SleepingIdleStrategy(Duration.ofMillis(1)),
                new DistinctErrorLog("test"), ticks::incrementAndGet, Duration.ofSeconds(2));
        runner.start();
        assertTrue(threeRounds.await(10, TimeUnit.SECONDS));
        runner.close();
        assertEquals(List.of(101L, 102L, 103L), seen.subList(0, 3));
        assertNotSame(null, runner.errors());
    }
}
