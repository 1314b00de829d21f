package org.latencyserver.launch.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TaskQueueAgentTest {

    @Test
    void tasksRunInOrderOnTheAgentsThreadAndTheirResultsReachTheCaller() throws Exception {
        final List<String> ran = new CopyOnWriteArrayList<>();
        final TaskQueueAgent agent = TaskQueueAgent.named("test-tasks").build();
        try (AgentRunner runner = new AgentRunner(agent, NoIdleStrategy.INSTANCE)) {
            runner.start();
            agent.execute(() -> ran.add("a"));
            final Future<String> thread = agent.submit(() -> Thread.currentThread().getName());
            assertEquals("test-tasks", thread.get(10, TimeUnit.SECONDS));
            agent.execute(() -> ran.add("b"));
            assertEquals("x", agent.submit(() -> "x").get(10, TimeUnit.SECONDS));
            assertEquals(List.of("a", "b"), ran);
        }
    }

    @Test
    void theDutyRunsWithItsFixedDelayBetweenTasks() throws InterruptedException {
        final CountDownLatch threeDuties = new CountDownLatch(3);
        final List<Long> dutyNanos = new CopyOnWriteArrayList<>();
        final TaskQueueAgent agent = TaskQueueAgent.named("test-duty")
                .duty(PeriodicDeadline.Kind.FIXED_DELAY, TimeUnit.MILLISECONDS.toNanos(20), () -> {
                    dutyNanos.add(System.nanoTime());
                    threeDuties.countDown();
                })
                .build();
        try (AgentRunner runner = new AgentRunner(agent, NoIdleStrategy.INSTANCE)) {
            runner.start();
            assertTrue(threeDuties.await(10, TimeUnit.SECONDS));
        }
        for (int i = 1; i < 3; i++) {
            final long gapNanos = dutyNanos.get(i) - dutyNanos.get(i - 1);
            assertTrue(gapNanos >= TimeUnit.MILLISECONDS.toNanos(19), "duties " + gapNanos + " ns apart");
        }
    }

    @Test
    void theCloseEndsTheWaitAtOnceRunsLeftoversThenTheLastActionAndRejectsNewTasks() throws Exception {
        final List<String> ran = new CopyOnWriteArrayList<>();
        final CountDownLatch blocked = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final TaskQueueAgent agent = TaskQueueAgent.named("test-close")
                .lastAction(() -> ran.add("last"))
                .build();
        final AgentRunner runner = new AgentRunner(agent, NoIdleStrategy.INSTANCE, new DistinctErrorLog("test"),
                System::nanoTime, Duration.ofSeconds(10));
        runner.start();
        agent.execute(() -> {
            blocked.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                ran.add("interrupted");
            }
        });
        assertTrue(blocked.await(10, TimeUnit.SECONDS));
        agent.execute(() -> ran.add("queued"));
        final Thread closer = new Thread(runner::close);
        closer.start();
        while (agent.queued() < 2) { // the queued task and the close's marker
            Thread.sleep(1);
        }
        assertThrows(RejectedExecutionException.class, () -> agent.execute(() -> ran.add("too late")));
        release.countDown();
        closer.join(10_000);
        assertTrue(runner.closed());
        assertEquals(List.of("queued", "last"), ran);
    }

    @Test
    void aDutyScheduledLaterStartsAfterItsPeriod() throws Exception {
        final AtomicInteger duties = new AtomicInteger();
        final TaskQueueAgent agent = TaskQueueAgent.named("test-later").build();
        try (AgentRunner runner = new AgentRunner(agent, NoIdleStrategy.INSTANCE)) {
            runner.start();
            agent.submit(() -> 0).get(10, TimeUnit.SECONDS);
            Thread.sleep(50);
            assertEquals(0, duties.get(), "no duty before it is scheduled");
            agent.scheduleDuty(PeriodicDeadline.Kind.FIXED_RATE, TimeUnit.MILLISECONDS.toNanos(5), duties::incrementAndGet);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (duties.get() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertTrue(duties.get() >= 3);
        }
    }

    @Test
    void cancelledLeftoversNeverRun() throws Exception {
        final AtomicInteger ran = new AtomicInteger();
        final TaskQueueAgent agent = TaskQueueAgent.named("test-cancel").leftovers(TaskQueueAgent.Leftovers.CANCEL).build();
        final AgentRunner runner = new AgentRunner(agent, NoIdleStrategy.INSTANCE);
        final Future<Integer> neverRun = agent.submit(ran::incrementAndGet);
        runner.close();
        assertTrue(neverRun.isCancelled());
        assertEquals(0, ran.get());
    }

    @Test
    void anIdleWaitWithoutDutyEndsAtOnceOnClose() {
        final TaskQueueAgent agent = TaskQueueAgent.named("test-idle").build();
        final AgentRunner runner = new AgentRunner(agent, NoIdleStrategy.INSTANCE);
        runner.start();
        runner.close();
        assertTrue(runner.closed(), "the thread ended within the close's wait");
    }
}
