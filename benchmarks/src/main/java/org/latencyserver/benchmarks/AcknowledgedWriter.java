package org.latencyserver.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.orb.References;
import org.omg.CORBA.ORB;

/**
 * The writer of {@link StandbyLoadKillHarness}: {@code PutMibUpdates} of connection 2 every 2 ms
 * (client CPU 1–30 %, a new value each call, so every call changes the record), found by name. At a
 * kill, its first failed call holds it until the harness has checked, on the new primary, that the
 * row holds its last acknowledged value (or a value whose call failed: an unacknowledged write may
 * or may not have reached the standby); then it finds the server again and goes on.
 *
 * <p>Thread-safety: its state is guarded by this object's monitor.
 */
final class AcknowledgedWriter {

    private static final short CONNECTION = 2;

    private final ORB orb;
    private final String naming;
    private final AtomicBoolean running;
    private long acknowledged;
    private long failures;
    private final List<Long> failuresPerKill = new ArrayList<>();
    private long failuresThisKill;
    private int lastAcknowledgedCpu = -1;
    /** Values whose calls failed since the last acknowledged one. */
    private final Set<Integer> unacknowledgedCpus = new LinkedHashSet<>();
    private boolean holding;
    private boolean holdOnFailure;

    private AcknowledgedWriter(final ORB orb, final String naming, final AtomicBoolean running) {
        this.orb = orb;
        this.naming = naming;
        this.running = running;
    }

    static AcknowledgedWriter start(final ORB orb, final String naming, final AtomicBoolean running) {
        final AcknowledgedWriter writer = new AcknowledgedWriter(orb, naming, running);
        final Thread thread = new Thread(writer::run, "writer");
        thread.setDaemon(true);
        thread.start();
        return writer;
    }

    /** The primary was killed: the writer's next failure holds it until {@link #checkOn}. */
    synchronized void killed(final long killedNanos) {
        if (holdOnFailure || failuresThisKill > 0) {
            failuresPerKill.add(failuresThisKill);
        }
        failuresThisKill = 0;
        holdOnFailure = true;
    }

    /**
     * Waits (up to 60 s) for the writer to hold after a failure, checks its row on the new primary, and lets it go on.
     *
     * @return null when the row holds the last acknowledged value (or an unacknowledged one); else what it holds
     */
    synchronized String checkOn(final Latserv newPrimary) throws InterruptedException {
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (!holding && System.nanoTime() < deadline) {
            wait(100);
        }
        if (!holding) {
            holdOnFailure = false;
            return "writer: no failed call within 60 s of the kill";
        }
        final int served = newPrimary.RequestTableStatus(CONNECTION).latest_client_mib_cpu;
        final String result = served == lastAcknowledgedCpu || unacknowledgedCpus.contains(served) ? null
            : "writer's connection " + CONNECTION + " serves CPU " + served + ", acknowledged " + lastAcknowledgedCpu
                + " (unacknowledged " + unacknowledgedCpus + ")";
        holding = false;
        holdOnFailure = false;
        notifyAll();
        return result;
    }

    synchronized String describeKill() {
        return failuresThisKill + " failed";
    }

    synchronized String summary(final int kills) {
        failuresPerKill.add(failuresThisKill);
        return String.format(Locale.ROOT, "writer (PutMibUpdates by name, every 2 ms): %d acknowledged, %d failed; failed per kill p50 %d,"
            + " max %d", acknowledged, failures, StandbyLoadKillHarness.median(failuresPerKill),
            StandbyLoadKillHarness.max(failuresPerKill));
    }

    private void run() {
        Latserv server = null;
        int cpu = 1;
        while (running.get()) {
            cpu = cpu % 30 + 1;
            try {
                if (server == null) {
                    server = LatservHelper.narrow(References.resolve(orb, StandbyLoadKillHarness.PARTITION_NAME, naming));
                }
                StandbyLoadKillHarness.push(server, CONNECTION, cpu);
                acknowledged(cpu);
                Thread.sleep(2);
            } catch (org.omg.CORBA.SystemException | References.ReferenceException e) {
                server = null;
                try {
                    if (!failed(cpu, e instanceof org.omg.CORBA.SystemException)) {
                        sleep();
                    }
                } catch (InterruptedException interrupted) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void acknowledged(final int cpu) {
        acknowledged++;
        lastAcknowledgedCpu = cpu;
        unacknowledgedCpus.clear();
    }

    /** @return whether it held (and was let go by the check) */
    private synchronized boolean failed(final int cpu, final boolean sent) throws InterruptedException {
        failures++;
        failuresThisKill++;
        if (sent) {
            unacknowledgedCpus.add(cpu);
        }
        if (!holdOnFailure) {
            return false;
        }
        holding = true;
        notifyAll();
        while (holding && running.get()) {
            wait(100);
        }
        return true;
    }

    private static void sleep() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
