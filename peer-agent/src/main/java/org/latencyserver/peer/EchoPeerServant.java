package org.latencyserver.peer;

import java.util.concurrent.atomic.AtomicLong;
import org.latencyserver.orb.EchoingPeer;

/**
 * The peer agent's echo end of a round trip over CORBA: every operation returns what it was given
 * ({@link EchoingPeer}), and each answer is counted for the log.
 *
 * <p>Thread-safe: JacORB may call it from several request threads at once; the only state is a
 * counter.
 */
public final class EchoPeerServant extends EchoingPeer {

    private final AtomicLong echoes = new AtomicLong();

    /** @return how many echoes this servant has answered, for the log */
    public long echoCount() {
        return echoes.get();
    }

    @Override
    protected void beforeAnswer() {
        echoes.incrementAndGet();
    }
}
