package org.latencyserver.server.standby;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server that stepped down joins the pair again as standby, without a restart: it leaves the view
 * and joins every {@value #RETRY_MILLIS} ms until the other server (the primary) is in it, then
 * stands by — the other sends it the whole table, applied through its running update thread — and
 * may take over again when that one leaves. It never stays alone in a view, so it never meets the
 * other as a second primary.
 *
 * <p>Thread-safety: {@link #run} on the step-down's own thread ({@code standby-step-down}), one at a
 * time (a server steps down once per serving term).
 */
final class Rejoin {

    private static final Logger LOG = LoggerFactory.getLogger(Rejoin.class);
    /** How long a server that stepped down waits between two attempts to find the other server, ms. */
    static final long RETRY_MILLIS = 1000;

    private final PairRole role;
    private final ReplicationChannel channel;
    private final String peer;

    Rejoin(final PairRole role, final ReplicationChannel channel, final String peer) {
        this.role = role;
        this.channel = channel;
        this.peer = peer;
    }

    /**
     * Joins until the other server is in the view, or the server closes.
     *
     * @param merged whether the other server is already in this one's view (a merge): it stands by at once
     */
    void run(final boolean merged) {
        boolean inViewWithOther = merged && channel.members() > 1; // it already stands beside the primary
        while (!role.closed()) {
            try {
                if (inViewWithOther || channel.joinOthers()) {
                    inViewWithOther = false;
                    final Runnable told;
                    synchronized (role) {
                        if (role.closed()) {
                            return;
                        }
                        told = role.standingByAgain();
                    }
                    LOG.warn("joined the pair again as standby for the primary at {}: its table is sent here", peer);
                    if (told != null) {
                        told.run();
                    }
                    return;
                }
            } catch (IOException e) {
                LOG.warn("joining the pair again failed: {}; trying every {} ms", e.getMessage(), RETRY_MILLIS);
            }
            try {
                Thread.sleep(RETRY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
