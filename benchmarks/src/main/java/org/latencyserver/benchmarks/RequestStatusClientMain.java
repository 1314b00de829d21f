package org.latencyserver.benchmarks;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.ORB;

/**
 * One client JVM of {@link RequestStatusHarness}: keeps one JacORB client ORB (so one connection
 * per server, as a real client process has; {@code -Dharness.client.orbs=N} for N ORBs and so N
 * connections, callers spread over them) and runs the harness's rounds on command. Its one
 * argument is its {@link ClientCommandDirectory}: it writes its ready file there, takes one
 * command per file from there, and after each writes the {@link RequestStatusResult} file the
 * command names. {@code REFERENCE} is the server's IOR.
 *
 * <ul>
 *   <li>{@code closed REFERENCE CALLERS SECONDS START_EPOCH_MILLIS RESULT_FILE}: {@code CALLERS}
 *       threads call {@code RequestStatus} back to back from the given start for the given time;
 *       each round trip is timed from its send.</li>
 *   <li>{@code open REFERENCE THREADS SECONDS START_EPOCH_MILLIS RESULT_FILE RATE OFFSET_FRACTION}:
 *       sends at {@code RATE} calls/s, call {@code i} scheduled in advance at
 *       {@code start + (i + OFFSET_FRACTION) / RATE}; call {@code i} is made by thread
 *       {@code i mod THREADS}, so one slow reply does not hold up the calls scheduled after it;
 *       latency is counted from the scheduled send time, not the actual one (coordinated omission
 *       corrected by construction: a call sent late because its thread was still waiting counts
 *       the wait).</li>
 *   <li>{@code quit}.</li>
 * </ul>
 */
public final class RequestStatusClientMain {

    private static final long HIGHEST_NANOS = 3_600_000_000_000L;

    /** The client ORBs: one by default; more ({@code -Dharness.client.orbs=N}) open one connection each per server. */
    private final ORB[] orbs;
    private final Map<String, Latserv[]> targets = new HashMap<>();

    private RequestStatusClientMain(final ORB[] orbs) {
        this.orbs = orbs;
    }

    /**
     * @param args {@code DIRECTORY}, its {@link ClientCommandDirectory}
     * @throws Exception when the ORB cannot start or a result cannot be written
     */
    public static void main(final String[] args) throws Exception {
        final ORB[] orbs = new ORB[Math.max(1, Integer.getInteger("harness.client.orbs", 1))];
        for (int i = 0; i < orbs.length; i++) {
            orbs[i] = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
        }
        final RequestStatusClientMain client = new RequestStatusClientMain(orbs);
        final ClientCommandDirectory commands = new ClientCommandDirectory(Path.of(args[0]));
        commands.writeReady();
        while (true) {
            final String line = commands.next();
            final String[] words = line.split("\\s+");
            if (words[0].equals("quit")) {
                break;
            }
            final Latserv[] target = client.target(words[1]);
            final int threads = Integer.parseInt(words[2]);
            final double seconds = Double.parseDouble(words[3]);
            final long startNanos = System.nanoTime() + (Long.parseLong(words[4]) - System.currentTimeMillis()) * 1_000_000L;
            final Path resultFile = Path.of(words[5]);
            final RequestStatusResult result;
            if (words[0].equals("closed")) {
                result = closed(target, threads, seconds, startNanos);
            } else if (words[0].equals("open")) {
                result = open(target, threads, seconds, startNanos, Double.parseDouble(words[6]), Double.parseDouble(words[7]));
            } else {
                throw new IllegalArgumentException("unknown command: " + line);
            }
            result.write(resultFile);
        }
        for (final ORB orb : orbs) {
            orb.shutdown(false);
        }
        System.exit(0);
    }

    /** @return the server's reference in each client ORB; caller {@code t} uses ORB {@code t mod N} */
    private Latserv[] target(final String ior) {
        Latserv[] target = targets.get(ior);
        if (target == null) {
            target = new Latserv[orbs.length];
            for (int i = 0; i < orbs.length; i++) {
                target[i] = LatservHelper.narrow(orbs[i].string_to_object(ior));
            }
            targets.put(ior, target);
        }
        return target;
    }

    private static void sleepUntil(final long nanos) {
        long left;
        while ((left = nanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    private static RequestStatusResult closed(final Latserv[] targets, final int callers, final double seconds, final long startNanos)
        throws InterruptedException {
        final long endNanos = startNanos + (long) (seconds * 1e9);
        return runCallers(targets, callers, "caller-", seconds, (index, target, tally) -> {
            sleepUntil(startNanos);
            long n = 0;
            long failed = 0;
            long now = System.nanoTime();
            while (now < endNanos) {
                final long start = now;
                try {
                    target.RequestStatus((short) 1);
                    now = System.nanoTime();
                    tally.latency.recordValue(now - start);
                    n++;
                } catch (org.omg.CORBA.SystemException e) {
                    failed++;
                    LockSupport.parkNanos(1_000_000L);
                    now = System.nanoTime();
                }
            }
            tally.counted(n, failed);
        });
    }

    private static RequestStatusResult open(final Latserv[] targets, final int threadCount, final double seconds, final long startNanos,
        final double rate, final double offsetFraction) throws InterruptedException {
        final double intervalNanos = 1e9 / rate;
        final long total = (long) (seconds * rate);
        return runCallers(targets, threadCount, "sender-", seconds, (index, target, tally) -> {
            long n = 0;
            long failed = 0;
            for (long i = index; i < total; i += threadCount) {
                final long scheduled = startNanos + (long) ((i + offsetFraction) * intervalNanos);
                sleepUntil(scheduled);
                try {
                    target.RequestStatus((short) 1);
                    tally.latency.recordValue(System.nanoTime() - scheduled);
                    n++;
                } catch (org.omg.CORBA.SystemException e) {
                    failed++;
                }
            }
            tally.counted(n, failed);
        });
    }

    /**
     * What one calling thread counted; only that thread writes it, and it is read after
     * {@link Thread#join()}. The thread counts in locals and hands the counts over once at the end,
     * so that callers do not write neighbouring tallies' cache lines while they are timed.
     */
    private static final class CallerTally {
        final Histogram latency = new Histogram(HIGHEST_NANOS, 3);
        long calls;
        long errors;

        void counted(final long completedCalls, final long failedCalls) {
            calls = completedCalls;
            errors = failedCalls;
        }
    }

    /** The calls one thread makes, thread {@code index} of the round, into its own tally. */
    @FunctionalInterface
    private interface CallerLoop {
        void run(int index, Latserv target, CallerTally tally);
    }

    /**
     * Runs {@code threadCount} threads of {@code loop}, thread {@code t} on the reference in ORB
     * {@code t mod N}, waits for all and merges their tallies into the round's result.
     */
    private static RequestStatusResult runCallers(final Latserv[] targets, final int threadCount, final String threadNamePrefix,
        final double seconds, final CallerLoop loop) throws InterruptedException {
        final CallerTally[] tallies = new CallerTally[threadCount];
        final Thread[] threads = new Thread[threadCount];
        for (int t = 0; t < threadCount; t++) {
            final int index = t;
            final Latserv target = targets[t % targets.length];
            final CallerTally tally = new CallerTally();
            tallies[t] = tally;
            threads[t] = new Thread(() -> loop.run(index, target, tally), threadNamePrefix + t);
            threads[t].start();
        }
        final Histogram all = new Histogram(HIGHEST_NANOS, 3);
        final long[] calls = new long[threadCount];
        long errors = 0;
        for (int t = 0; t < threadCount; t++) {
            threads[t].join();
            all.add(tallies[t].latency);
            calls[t] = tallies[t].calls;
            errors += tallies[t].errors;
        }
        return new RequestStatusResult(seconds, calls, errors, all);
    }
}
