package org.latencyserver.server.standby;

/**
 * Watches a serving primary's {@link PrimaryLease} on a thread of its own ({@code standby-lease}),
 * every {@code lease / 20} (at least 10 ms): once the lease ran out while the server serves, it
 * asks the role to step down ({@link PairRole#leaseLapsed}).
 *
 * <p>Thread-safety: {@link #start} and {@link #close} from any thread, once each; the watch reads
 * the role's volatile flags and the lease (itself thread-safe).
 */
final class LeaseWatch implements AutoCloseable {

    private final PairRole role;
    private final PrimaryLease lease;
    private final long leaseMillis;
    private Thread thread;
    private volatile boolean closed;

    /**
     * @param role        the role to step down
     * @param lease       the primary's lease
     * @param leaseMillis the lease's length, ms ({@code server.standby.lease_millis})
     */
    LeaseWatch(final PairRole role, final PrimaryLease lease, final long leaseMillis) {
        this.role = role;
        this.lease = lease;
        this.leaseMillis = leaseMillis;
    }

    /** Starts the watch's thread. */
    synchronized void start() {
        final long periodMillis = Math.max(10, leaseMillis / 20);
        thread = new Thread(() -> {
            while (!closed) {
                if (role.serving() && lease.lapsed()) {
                    role.leaseLapsed("this primary could not confirm its name in the naming service for " + leaseMillis
                        + " ms (server.standby.lease_millis): its lease ran out");
                }
                try {
                    Thread.sleep(periodMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "standby-lease");
        thread.setDaemon(true);
        thread.start();
    }

    /** Ends the watch. */
    @Override
    public void close() {
        closed = true;
        final Thread watching;
        synchronized (this) {
            watching = thread;
        }
        if (watching != null) {
            watching.interrupt();
        }
    }
}
