package org.latencyserver.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;

/**
 * An application of {@link StandbyLoadKillHarness}: on its own thread, every 5 ms, {@code RequestStatus},
 * {@code current_estimate} and {@code deadline_miss_probability} of connection 1, on the server it found
 * its own way (a name, a corbaname URL, a by-client name). After a failed call it finds the server
 * again and retries that call once at once (counted: whether the one retry reached the new primary),
 * then every 5 ms until a call succeeds. An IDL exception is an answer, not a failure.
 *
 * <p>Thread-safety: the counters are written by the application's thread and read by the harness's
 * under this object's monitor.
 */
final class LoadApplication {

    private final String label;
    private final Supplier<org.omg.CORBA.Object> find;
    private final AtomicBoolean running;
    private long calls;
    private long failures;
    private final Map<String, Long> failuresByException = new TreeMap<>();
    private final List<Long> failuresPerKill = new ArrayList<>();
    private final List<Long> firstSuccessMillis = new ArrayList<>();
    private long retriesOnce;
    private long retriesOnceReached;
    /** The kill being followed: its time (ns), after which a call started counts as on the new primary; 0: none. */
    private long killedNanos;
    private long killReturnedNanos;
    private long failuresThisKill;
    private long firstSuccessThisKillMillis = -1;

    private LoadApplication(final String label, final Supplier<org.omg.CORBA.Object> find, final AtomicBoolean running) {
        this.label = label;
        this.find = find;
        this.running = running;
    }

    static LoadApplication start(final String label, final AtomicBoolean running,
                                 final Supplier<org.omg.CORBA.Object> find) {
        final LoadApplication application = new LoadApplication(label, find, running);
        final Thread thread = new Thread(application::run, "application " + label);
        thread.setDaemon(true);
        thread.start();
        return application;
    }

    /** The harness is about to kill the primary; the window of the kill before closes. */
    synchronized void killed() {
        closeKill();
        killedNanos = System.nanoTime();
        killReturnedNanos = Long.MAX_VALUE;
        failuresThisKill = 0;
        firstSuccessThisKillMillis = -1;
    }

    /** The kill returned (the process is gone): calls started from now on reach the new primary or fail. */
    synchronized void killReturned() {
        killReturnedNanos = System.nanoTime();
    }

    private void closeKill() {
        if (killedNanos != 0) {
            failuresPerKill.add(failuresThisKill);
            firstSuccessMillis.add(firstSuccessThisKillMillis);
            killedNanos = 0;
        }
    }

    /** @return this kill's failed calls and time to the first successful call so far, for the kill's line */
    synchronized String describeKill() {
        return String.format(Locale.ROOT, "[%s: %d failed, first success %d ms]", label, failuresThisKill, firstSuccessThisKillMillis);
    }

    /** @return the whole run's counts */
    synchronized String summary(final int kills) {
        closeKill();
        final List<Long> successes = new ArrayList<>(firstSuccessMillis);
        successes.removeIf(m -> m < 0);
        return String.format(Locale.ROOT, "application %-28s %7d calls, %5d failed (%s); failed per kill p50 %d, max %d; one"
                + " retry after re-resolving reached the new primary %d of %d times; kill to its first successful call p50 %d ms,"
                + " max %d ms (%d of %d kills)", label, calls, failures, failuresByException,
            StandbyLoadKillHarness.median(failuresPerKill), StandbyLoadKillHarness.max(failuresPerKill), retriesOnceReached,
            retriesOnce, successes.isEmpty() ? -1 : StandbyLoadKillHarness.median(successes),
            successes.isEmpty() ? -1 : StandbyLoadKillHarness.max(successes), successes.size(), kills);
    }

    private void run() {
        LatencyService server = null;
        while (running.get()) {
            final long startNanos = System.nanoTime();
            try {
                if (server == null) {
                    server = LatencyServiceHelper.narrow(find.get());
                }
                callOnce(server);
                succeeded(startNanos);
                sleep(5);
            } catch (org.omg.CORBA.SystemException | org.latencyserver.orb.References.ReferenceException e) {
                server = null;
                if (!failed(e)) {
                    sleep(5);
                }
            }
        }
    }

    private static void callOnce(final LatencyService server) {
        server.RequestStatus((short) 1);
        try {
            server.current_estimate((short) 1);
            server.deadline_miss_probability((short) 1, 5.0);
        } catch (org.omg.CORBA.UserException e) {
            // an answer (e.g. no estimate yet): the server was reached
        }
    }

    private synchronized void succeeded(final long startNanos) {
        calls++;
        if (retryOnceRunning) {
            retriesOnceReached++;
        }
        retryOnceRunning = false;
        inOutage = false;
        if (killedNanos != 0 && startNanos > killReturnedNanos && firstSuccessThisKillMillis < 0) {
            firstSuccessThisKillMillis = (System.nanoTime() - killedNanos) / 1_000_000;
        }
    }

    /** Whether the call now running is the one retry made at once after an outage's first failure. */
    private boolean retryOnceRunning;
    /** Whether calls fail since the last success. */
    private boolean inOutage;

    /** @return whether to retry at once (the outage's first failure), else after 5 ms */
    private synchronized boolean failed(final Exception e) {
        calls++;
        failures++;
        failuresThisKill++;
        failuresByException.merge(StandbyLoadKillHarness.failureName(e), 1L, Long::sum);
        if (!inOutage) {
            inOutage = true;
            retriesOnce++;
            retryOnceRunning = true;
            return true;
        }
        retryOnceRunning = false;
        return false;
    }

    private static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
