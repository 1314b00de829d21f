package org.latencyserver.server.snmp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.launch.agent.PeriodicAgent;
import org.latencyserver.launch.agent.PeriodicDeadline;
import org.latencyserver.server.config.LinkConfig;
import org.latencyserver.server.config.MibSource;
import org.latencyserver.server.config.NodeConfig;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.table.ConnectionSpec;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.event.ResponseListener;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.security.AuthHMAC192SHA256;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.PrivAES256;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.smi.OctetString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SNMP poller: every {@code pollIntervalMillis} it sends one asynchronous request to
 * each polled workstation and switch port over a single SNMP4J session, and hands the connections'
 * changed values to a {@link MibSink}. The requests of one interval are spread over it in up to
 * {@value #SLICES_PER_INTERVAL} slices (source i in slice i mod slices), not all sent at one instant.
 * Every {@value #DELIVERY_PERIOD_MILLIS} ms the poller's thread looks for sources that took an answer
 * or a miss since it last looked and delivers their connections' changed values, so a change reaches
 * the update engine within that period of its answer, whatever the poll interval (it used to wait
 * for the next interval: up to a whole second at 1 Hz).
 *
 * <p>Each source has at most one request in flight, with its own configured timeout and retries,
 * so a slow or dead agent only skips its own polls and never delays the others. A source whose
 * answers are missing or unusable for {@code unknownAfterMissedPolls} polls in a row becomes
 * UNKNOWN (its value −1, the reason logged once) and is known again at its next good answer.
 *
 * <p>Requests go out from the local address each agent's snmp block names ({@code local_address}),
 * one UDP socket per distinct address; agents without one share a socket on the loopback when they
 * are all on loopback, else on the wildcard ({@link PollerSockets}). {@link #start} logs where.
 *
 * <p>Values are delivered on change only (a connection's polled values are compared with what
 * was last delivered), so a quiet network costs the update thread nothing. A value is delivered at
 * most {@value #DELIVERY_PERIOD_MILLIS} ms after its answer arrived.
 *
 * <p>Thread-safety: {@link #start} and {@link #close} once each, from one thread; the rest runs on
 * the poller's own thread (a {@link PeriodicAgent}: the slices at a fixed rate, the deliveries with a
 * fixed delay) and SNMP4J's threads.
 */
public final class SnmpPoller implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SnmpPoller.class);
    /**
     * Slices of a poll interval: the sources are asked a slice at a time rather than all at the same
     * instant, so that thousands of answers do not arrive together (at 15,000 agents they came back
     * later than their timeout, or overflowed the receive buffer).
     */
    static final int SLICES_PER_INTERVAL = 10;
    /**
     * How often answers are turned into deliveries, in ms: bounds what the poller adds between an
     * answer and the update engine. A look costs one volatile read per polled source.
     */
    static final long DELIVERY_PERIOD_MILLIS = 5;

    private final long pollIntervalMillis;
    private final MibSink sink;
    private final LongSupplier nanoClock;
    private final Snmp snmp;
    private final PollPlan plan;
    private final PollerSockets sockets;
    /** Per connection, the values last delivered. Owned by the poller thread. */
    private final Map<Short, PolledValues> delivered = new HashMap<>();
    /** The poller's thread, an agent of two duties (poll a slice, deliver answers); built by {@link #start}. */
    private AgentRunner pollerThread;
    /** The interval is cut into this many slices, each asking its share of the sources. */
    private final int slices;
    /** Per polled source (the plan's order), its {@link PolledSource#outcomes} when last delivered. Owned by the poller thread. */
    private final long[] deliveredOutcomes;
    /** The slice the next tick asks. Owned by the poller thread. */
    private int nextSlice;
    /** Requests sent, answers received, and polls skipped because the previous one was still out. */
    private final LongAdder requestsSent = new LongAdder();
    private final LongAdder answersReceived = new LongAdder();
    private final LongAdder pollsSkipped = new LongAdder();

    /**
     * Builds the poller; nothing is sent before {@link #start}.
     *
     * @param nodes                   the configured workstations; those with {@code mib_source: snmp} are polled
     * @param links                   the configured switch ports; those with {@code mib_source: snmp} are polled
     * @param connectionSpecs         the connections; those with at least one polled end are fed
     * @param pollIntervalMillis      poll period, ≥ 1 ms
     * @param unknownAfterMissedPolls misses in a row that make a source UNKNOWN, ≥ 1
     * @param environment             looks up the environment variables holding the SNMP secrets
     * @param sink                    where changed values go
     * @param nanoClock               monotonic time, e.g. {@code System::nanoTime}
     * @throws IOException              when a UDP socket cannot be bound to its local address (the message names it)
     * @throws IllegalArgumentException when an address is unsupported or a secret's variable is unset
     */
    public SnmpPoller(final List<NodeConfig> nodes, final List<LinkConfig> links, final List<ConnectionSpec> connectionSpecs,
                      final long pollIntervalMillis, final int unknownAfterMissedPolls,
                      final Function<String, String> environment, final MibSink sink, final LongSupplier nanoClock)
        throws IOException {
        if (pollIntervalMillis < 1) {
            throw new IllegalArgumentException("poll interval must be >= 1 ms, was " + pollIntervalMillis);
        }
        this.pollIntervalMillis = pollIntervalMillis;
        this.sink = sink;
        this.nanoClock = nanoClock;
        final USM usm = newUsm();
        final MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
        dispatcher.addMessageProcessingModel(new MPv2c());
        dispatcher.addMessageProcessingModel(new MPv3(usm));
        this.plan = new PollPlan(nodes, links, connectionSpecs, unknownAfterMissedPolls, environment, usm);
        this.deliveredOutcomes = new long[plan.polled().size()];
        this.slices = (int) Math.max(1, Math.min(SLICES_PER_INTERVAL, Math.min(pollIntervalMillis, plan.polled().size())));
        this.snmp = new Snmp(dispatcher);
        try {
            this.sockets = PollerSockets.bind(snmp, plan.agents());
        } catch (IOException | RuntimeException e) {
            try {
                snmp.close(); // the sockets bound so far
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** @return a user-based security model that knows SHA, HMAC-192-SHA-256, AES-128 and AES-256 as well as the defaults */
    static USM newUsm() {
        final SecurityProtocols protocols = new SecurityProtocols(SecurityProtocols.SecurityProtocolSet.maxCompatibility);
        protocols.addAuthenticationProtocol(new AuthSHA());
        protocols.addAuthenticationProtocol(new AuthHMAC192SHA256());
        protocols.addPrivacyProtocol(new PrivAES128());
        protocols.addPrivacyProtocol(new PrivAES256());
        return new USM(protocols, new OctetString(MPv3.createLocalEngineID()), 0);
    }

    /**
     * The poller for a configuration, with secrets from the process environment.
     *
     * @param configuration the server's configuration
     * @param sink          where changed values go
     * @return the poller, not yet started
     * @throws IOException              when the UDP socket cannot be opened
     * @throws IllegalArgumentException when an address is unsupported or a secret's variable is unset
     */
    public static SnmpPoller forConfiguration(final ServerConfiguration configuration, final MibSink sink) throws IOException {
        return new SnmpPoller(configuration.nodes(), configuration.links(), configuration.connectionSpecs(),
            configuration.server().pollIntervalMillis(), configuration.server().unknownAfterMissedPolls(), System::getenv, sink,
            System::nanoTime);
    }

    /**
     * @param configuration a server's configuration
     * @return whether any workstation or switch port in it is polled ({@code mib_source: snmp})
     */
    public static boolean polls(final ServerConfiguration configuration) {
        return configuration.nodes().stream().anyMatch(n -> n.mibSource() == MibSource.SNMP)
            || configuration.links().stream().anyMatch(l -> l.mibSource() == MibSource.SNMP);
    }

    /** @return how many workstations and switch ports are polled */
    public int sourceCount() {
        return plan.nodeCount() + plan.linkCount();
    }

    /**
     * Opens the socket and starts polling.
     *
     * @throws IOException when the socket cannot listen
     */
    public void start() throws IOException {
        snmp.listen();
        final long sliceNanos = TimeUnit.MILLISECONDS.toNanos(pollIntervalMillis) / slices;
        final long deliveryNanos = TimeUnit.MILLISECONDS.toNanos(DELIVERY_PERIOD_MILLIS);
        pollerThread = new AgentRunner(PeriodicAgent.named("snmp-poller")
                .duty(PeriodicDeadline.Kind.FIXED_RATE, sliceNanos, 0, this::pollSlice)
                .duty(PeriodicDeadline.Kind.FIXED_DELAY, deliveryNanos, deliveryNanos, this::deliverChanges)
                .build(), NoIdleStrategy.INSTANCE);
        pollerThread.start();
        LOG.info("SNMP poller: {} workstations, {} switch ports, {} connections, every {} ms", plan.nodeCount(),
            plan.linkCount(), plan.connectionCount(), pollIntervalMillis);
        final String bound = sockets.describe();
        if (!bound.isEmpty()) {
            LOG.info("SNMP poller sends from {}", bound);
        }
    }

    /** @return where the poller's UDP sockets are bound, one per distinct local address (thread-safe) */
    List<InetSocketAddress> localAddresses() {
        return sockets.localAddresses();
    }

    /** Asks the next slice's sources; a failure is counted by the poller's agent runner, and polling goes on. */
    private void pollSlice() {
        try {
            final List<PolledSource> polled = plan.polled();
            for (int i = nextSlice; i < polled.size(); i += slices) {
                send(polled.get(i));
            }
        } finally {
            nextSlice = (nextSlice + 1) % slices;
        }
    }

    /** Delivers the connections of every source that took an answer or a miss since the last look. */
    private void deliverChanges() {
        for (int i = 0; i < deliveredOutcomes.length; i++) {
            final long outcomes = plan.polled().get(i).outcomes();
            if (outcomes != deliveredOutcomes[i]) {
                deliveredOutcomes[i] = outcomes;
                for (final PollPlan.Wiring wiring : plan.wiringsOf(i)) {
                    deliver(wiring);
                }
            }
        }
    }

    private void deliver(final PollPlan.Wiring wiring) {
        if (!delivered.containsKey(wiring.indexRef()) && !wiring.settled()) {
            // Nothing read yet: leave the row as it is (fresh, or restored from the state file)
            // until a value arrives or a source turns out UNKNOWN.
            return;
        }
        final PolledValues values = wiring.values();
        if (!values.equals(delivered.get(wiring.indexRef()))) {
            delivered.put(wiring.indexRef(), values);
            sink.polled(values, wiring.lastAnswerNanos());
        }
    }

    private void send(final PolledSource source) {
        if (!source.inFlight().compareAndSet(false, true)) {
            // Its previous request has not timed out yet: that one will count the miss.
            pollsSkipped.increment();
            return;
        }
        final PDU request = source.request();
        final ResponseListener listener = new ResponseListener() {
            @Override
            public <A extends org.snmp4j.smi.Address> void onResponse(final ResponseEvent<A> event) {
                // SNMP4J keeps an asynchronous request registered until it is cancelled.
                ((Snmp) event.getSource()).cancel(event.getRequest(), this);
                try {
                    if (event.getError() != null) {
                        source.miss("request failed: " + event.getError().getMessage());
                    } else {
                        if (event.getResponse() != null) {
                            answersReceived.increment();
                        }
                        source.accept(event.getResponse(), nanoClock.getAsLong());
                    }
                } catch (RuntimeException e) {
                    source.miss("unreadable answer: " + e);
                } finally {
                    source.inFlight().set(false);
                }
            }
        };
        try {
            requestsSent.increment();
            snmp.send(request, source.target(), null, listener);
        } catch (IOException | RuntimeException e) {
            source.miss("could not send: " + e.getMessage());
            source.inFlight().set(false);
        }
    }

    /**
     * @return per polled node and link name (nodes first, in configuration order): true while it
     *         answers, false while it is UNKNOWN; safe to call from any thread
     */
    public Map<String, Boolean> sourcesUp() {
        return plan.sourcesUp();
    }

    /**
     * @return per polled node or link name, how often its agent refreshes the counters it is read from, seconds, as the
     *         polls have seen it (the median interval between changed readings); sources not yet seen are left out
     *         (thread-safe)
     */
    public Map<String, Double> counterRefreshSeconds() {
        return plan.counterRefreshSeconds();
    }

    /** @return SNMP requests sent since start (thread-safe) */
    public long requestsSent() {
        return requestsSent.sum();
    }

    /** @return answers received since start, good or bad (thread-safe) */
    public long answersReceived() {
        return answersReceived.sum();
    }

    /** @return polls not sent because the source's previous request was still outstanding (thread-safe) */
    public long pollsSkipped() {
        return pollsSkipped.sum();
    }

    /** Stops polling and closes the socket. */
    @Override
    public void close() {
        if (pollerThread != null) {
            pollerThread.close();
        }
        try {
            snmp.close();
        } catch (IOException e) {
            LOG.warn("closing the SNMP session: {}", e.getMessage());
        }
    }
}
