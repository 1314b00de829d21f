package org.latencyserver.launch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WorkerThreadTest {

    @Test
    void aStopEndsASleepingLoopAndWaitsForIt() throws InterruptedException {
        final CountDownLatch looping = new CountDownLatch(1);
        final CountDownLatch ended = new CountDownLatch(1);
        final AtomicReference<WorkerThread> worker = new AtomicReference<>();
        worker.set(new WorkerThread("test-worker", () -> {
            looping.countDown();
            while (worker.get().running()) {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    // look at the flag again
                }
            }
            ended.countDown();
        }));
        worker.get().start();
        assertTrue(looping.await(10, TimeUnit.SECONDS));
        assertTrue(worker.get().running());

        worker.get().stop(Duration.ofSeconds(10));

        assertFalse(worker.get().running());
        assertTrue(ended.await(0, TimeUnit.SECONDS), "the loop ended before stop returned");
    }

    @Test
    void finishOnlyClearsTheFlagAndAStopOfAThreadNeverStartedReturnsAtOnce() {
        final WorkerThread worker = new WorkerThread("test-worker", () -> { });
        worker.finish();
        assertFalse(worker.running());
        worker.stopKeepingInterrupt(Duration.ofSeconds(10));
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void anInterruptWhileWaitingIsKeptForTheCaller() {
        final CountDownLatch never = new CountDownLatch(1);
        final WorkerThread worker = new WorkerThread("test-stubborn", () -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                // a stubborn loop: ignores the stop
                try {
                    never.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException ignored) {
                    // the test's end
                }
            }
        });
        worker.start();
        Thread.currentThread().interrupt();
        worker.stopKeepingInterrupt(Duration.ofSeconds(10));
        assertTrue(Thread.interrupted(), "the interrupt is set again (and cleared here)");
        never.countDown();
    }
}
