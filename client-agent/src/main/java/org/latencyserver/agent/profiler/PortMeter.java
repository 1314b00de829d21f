package org.latencyserver.agent.profiler;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.latencyserver.launch.agent.Agent;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.SleepingIdleStrategy;
import org.snmp4j.CommunityTarget;
import org.snmp4j.smi.Address;

/**
 * Reads a switch port's IF-MIB octet counters through its SNMP agent every {@value #PERIOD_MILLIS} ms
 * on a thread of its own, and keeps each change ({@link PortCounterWindow}), so that a window's
 * utilisation can be taken afterwards over any span of the run. A change is timed at the middle of
 * the request that saw it: net-snmp refreshes its cached counters when a request arrives after the
 * cache expired, so the clock of a change is off by at most half a round trip when this is the
 * agent's only poller, and by at most one period when another poller (a server) triggered the refresh —
 * hence the short period: 50 ms is 0.5 % of a 10 s window.
 *
 * <p>The poller is an {@link Agent}: each round reads once, and the runner's sleeping idle strategy
 * waits {@value #PERIOD_MILLIS} ms before the next (a fixed delay after each read).
 *
 * <p>Thread-safe: one poller thread writes under the window's lock; {@link #changes()} copies.
 */
final class PortMeter implements AutoCloseable {

    static final long PERIOD_MILLIS = 50;

    private final SnmpReader snmp;
    private final CommunityTarget<Address> agent;
    private final int ifIndex;
    private final PortCounterWindow window = new PortCounterWindow();
    private final AtomicReference<String> lastFault = new AtomicReference<>();
    private final AgentRunner poller;

    PortMeter(final SnmpReader snmp, final CommunityTarget<Address> agent, final int ifIndex) {
        this.snmp = snmp;
        this.agent = agent;
        this.ifIndex = ifIndex;
        this.poller = new AgentRunner(new ReadAgent(), new SleepingIdleStrategy(Duration.ofMillis(PERIOD_MILLIS)));
    }

    /**
     * Reads once (so a wrong address, community or ifIndex is said before anything runs), then polls.
     *
     * @throws IOException what the agent answered
     */
    void start() throws IOException {
        final long[] octets = snmp.portOctets(agent, ifIndex);
        synchronized (window) {
            window.add(System.nanoTime(), octets[0], octets[1]);
        }
        poller.start();
    }

    /** One read per round; the round counts as idle, so the runner sleeps a period before the next. */
    private final class ReadAgent implements Agent {

        @Override
        public int doWork(final long nowNanos) {
            try {
                final long sentNanos = System.nanoTime();
                final long[] octets = snmp.portOctets(agent, ifIndex);
                // the agent read its counters between our request and its answer
                final long readNanos = sentNanos + (System.nanoTime() - sentNanos) / 2;
                synchronized (window) {
                    window.add(readNanos, octets[0], octets[1]);
                }
                lastFault.set(null);
            } catch (IOException e) {
                lastFault.set(e.getMessage());
            }
            return 0;
        }

        @Override
        public String roleName() {
            return "port-meter";
        }

        @Override
        public boolean wakesByInterrupt() {
            return true; // ends a read waiting for its answer
        }
    }

    /** @return the counter changes so far */
    List<PortCounterWindow.Change> changes() {
        synchronized (window) {
            return window.copy();
        }
    }

    /** @return the last read's fault, or null when the last read worked */
    String lastFault() {
        return lastFault.get();
    }

    @Override
    public void close() {
        poller.close();
    }
}
