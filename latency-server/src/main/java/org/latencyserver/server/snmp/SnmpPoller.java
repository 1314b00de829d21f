package org.latencyserver.server.snmp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
import org.latencyserver.server.config.SnmpAccess;
import org.latencyserver.server.table.ConnectionSpec;
import org.snmp4j.AbstractTarget;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.Target;
import org.snmp4j.TransportMapping;
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
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.transport.DefaultUdpTransportMapping;
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
 * are all on loopback, else on the wildcard ({@link PollerBinding}). {@link #start} logs where.
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
     * Receive buffer asked per agent a socket polls: the agents of a slice are asked at once, so their
     * answers arrive together, and the kernel counts about a kilobyte per small datagram. Below
     * {@link #DEFAULT_RECEIVE_BUFFER_BYTES} the system's default is kept; Linux caps what is asked at
     * {@code net.core.rmem_max}. (Thousands of agents overflowed the default 208 KiB: answers lost.)
     */
    static final int RECEIVE_BUFFER_BYTES_PER_AGENT = 2048;
    private static final int DEFAULT_RECEIVE_BUFFER_BYTES = 212_992;
    /**
     * Slices of a poll interval: the sources are asked a slice at a time rather than all at the same
     * instant, so that thousands of answers do not arrive together (at 15,000 agents they came back
     * later than their timeout, or overflowed the receive buffer).
     */
    static final int SLICES_PER_INTERVAL = 10;
    private static final int MAX_RECEIVE_BUFFER_BYTES = 64 * 1024 * 1024;
    /**
     * How often answers are turned into deliveries, in ms: bounds what the poller adds between an
     * answer and the update engine. A look costs one volatile read per polled source.
     */
    static final long DELIVERY_PERIOD_MILLIS = 5;

    private final long pollIntervalMillis;
    private final MibSink sink;
    private final LongSupplier nanoClock;
    private final Snmp snmp;
    /** The poller's sockets, by local address, and why each is there (for the start line). */
    private final Map<InetAddress, DefaultUdpTransportMapping> sockets = new LinkedHashMap<>();
    private final Map<InetAddress, String> socketReasons = new LinkedHashMap<>();
    private final Map<String, PolledSource> nodes = new LinkedHashMap<>();
    private final Map<String, PolledSource> links = new LinkedHashMap<>();
    private final List<Wiring> connections = new ArrayList<>();
    private final Map<Short, PolledValues> delivered = new HashMap<>();
    /** The poller's thread, an agent of two duties (poll a slice, deliver answers); built by {@link #start}. */
    private AgentRunner pollerThread;
    /** Every polled source, nodes then links: slice k of an interval asks sources k, k + slices, ... */
    private final List<PolledSource> polled = new ArrayList<>();
    /** The interval is cut into this many slices, each asking its share of the sources. */
    private final int slices;
    /** Per polled source (same order), the connections it feeds. */
    private final List<List<Wiring>> wiringsOfPolled = new ArrayList<>();
    /** Per polled source (same order), its {@link PolledSource#outcomes} when last delivered. Owned by the poller thread. */
    private long[] deliveredOutcomes;
    /** The slice the next tick asks. Owned by the poller thread. */
    private int nextSlice;
    /** Requests sent, answers received, and polls skipped because the previous one was still out. */
    private final java.util.concurrent.atomic.LongAdder requestsSent = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder answersReceived = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder pollsSkipped = new java.util.concurrent.atomic.LongAdder();

    /** A polled agent's target, the local address its block names (null: the default), and its node or link. */
    private record Agent(Target<?> target, String localAddress, String label) {
    }

    /** A connection and its polled sources (null where that end is pushed). */
    private record Wiring(short indexRef, PolledSource client, PolledSource peer, PolledSource port) {
    }

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
        final SecurityProtocols protocols = new SecurityProtocols(SecurityProtocols.SecurityProtocolSet.maxCompatibility);
        protocols.addAuthenticationProtocol(new AuthSHA());
        protocols.addAuthenticationProtocol(new AuthHMAC192SHA256());
        protocols.addPrivacyProtocol(new PrivAES128());
        protocols.addPrivacyProtocol(new PrivAES256());
        final USM usm = new USM(protocols, new OctetString(MPv3.createLocalEngineID()), 0);
        final MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
        dispatcher.addMessageProcessingModel(new MPv2c());
        dispatcher.addMessageProcessingModel(new MPv3(usm));
        final List<Agent> agents = new ArrayList<>();
        for (final NodeConfig node : nodes) {
            if (node.mibSource() == MibSource.SNMP) {
                final Target<?> target = SnmpTargets.target(node.snmp(), environment, usm);
                final String label = "node " + node.name();
                this.nodes.put(node.name(), node.snmp().cpuSource() == SnmpAccess.CpuSource.HR_PROCESSOR_LOAD
                    ? new HrProcessorLoadSource(label, target, unknownAfterMissedPolls)
                    : new UcdCpuSource(label, target, unknownAfterMissedPolls));
                agents.add(new Agent(target, node.snmp().localAddress(), label));
            }
        }
        for (final LinkConfig link : links) {
            if (link.mibSource() == MibSource.SNMP) {
                final Target<?> target = SnmpTargets.target(link.snmp(), environment, usm);
                this.links.put(link.name(), new LinkSource("link " + link.name(), target, unknownAfterMissedPolls, link.ifIndex(),
                    link.speedMbps(), link.discardsOid()));
                agents.add(new Agent(target, link.snmp().localAddress(), "link " + link.name()));
            }
        }
        for (final ConnectionSpec connection : connectionSpecs) {
            final Wiring wiring = new Wiring(connection.indexRef(), this.nodes.get(connection.clientNodeName()),
                this.nodes.get(connection.peerNodeName()), connection.linkName() == null ? null : this.links.get(connection.linkName()));
            if (wiring.client() != null || wiring.peer() != null || wiring.port() != null) {
                connections.add(wiring);
            }
        }
        polled.addAll(this.nodes.values());
        polled.addAll(this.links.values());
        final Map<PolledSource, List<Wiring>> wiringsBySource = new java.util.IdentityHashMap<>();
        for (final Wiring wiring : connections) {
            for (final PolledSource end : new PolledSource[] {wiring.client(), wiring.peer(), wiring.port()}) {
                if (end != null) {
                    final List<Wiring> fed = wiringsBySource.computeIfAbsent(end, unused -> new ArrayList<>());
                    if (fed.isEmpty() || fed.get(fed.size() - 1) != wiring) { // a node both client and peer: once
                        fed.add(wiring);
                    }
                }
            }
        }
        for (final PolledSource source : polled) {
            wiringsOfPolled.add(wiringsBySource.getOrDefault(source, List.of()));
        }
        this.deliveredOutcomes = new long[polled.size()];
        this.slices = (int) Math.max(1, Math.min(SLICES_PER_INTERVAL, Math.min(pollIntervalMillis, polled.size())));
        this.snmp = new Snmp(dispatcher);
        try {
            bind(agents);
        } catch (IOException | RuntimeException e) {
            try {
                snmp.close(); // the sockets bound so far
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /**
     * Opens one socket per distinct local address and makes each agent's target send from its own.
     *
     * @param agents the polled agents
     * @throws IOException when a socket cannot be bound (the message names the address)
     */
    @SuppressWarnings({"unchecked", "rawtypes"}) // SnmpTargets makes AbstractTargets with UDP addresses; the generics cannot say so
    private void bind(final List<Agent> agents) throws IOException {
        final List<InetAddress> defaultAgents = new ArrayList<>();
        for (final Agent agent : agents) {
            if (agent.localAddress() == null) {
                defaultAgents.add(((UdpAddress) agent.target().getAddress()).getInetAddress());
            }
        }
        final InetAddress fallback = PollerBinding.defaultFor(defaultAgents);
        final Map<InetAddress, List<String>> namedBy = new LinkedHashMap<>();
        final Map<InetAddress, Integer> agentsBySocket = new HashMap<>();
        for (final Agent agent : agents) {
            // Validated as an IP literal when the configuration was read: no name lookup here.
            final InetAddress local = agent.localAddress() == null ? fallback : InetAddress.getByName(agent.localAddress());
            DefaultUdpTransportMapping socket = sockets.get(local);
            if (socket == null) {
                try {
                    socket = new DefaultUdpTransportMapping(new UdpAddress(local, 0));
                } catch (IOException e) {
                    throw new IOException("cannot bind the SNMP poller's UDP socket to " + local.getHostAddress() + ": "
                        + e.getMessage(), e);
                }
                sockets.put(local, socket);
                snmp.addTransportMapping(socket);
            }
            agentsBySocket.merge(local, 1, Integer::sum);
            ((AbstractTarget) agent.target()).setPreferredTransports(List.of((TransportMapping) socket));
            if (agent.localAddress() != null) {
                namedBy.computeIfAbsent(local, a -> new ArrayList<>()).add(agent.label());
            }
        }
        sockets.forEach((local, socket) -> {
            final long wanted = (long) agentsBySocket.get(local) * RECEIVE_BUFFER_BYTES_PER_AGENT;
            if (wanted > DEFAULT_RECEIVE_BUFFER_BYTES) {
                socket.setReceiveBufferSize((int) Math.min(wanted, MAX_RECEIVE_BUFFER_BYTES)); // applied at listen
            }
        });
        for (final InetAddress local : sockets.keySet()) {
            final List<String> reasons = new ArrayList<>();
            if (namedBy.containsKey(local)) {
                reasons.add("local_address of " + String.join(", ", namedBy.get(local)));
            }
            if (local.equals(fallback) && !defaultAgents.isEmpty()) {
                reasons.add(fallback.isAnyLocalAddress() ? "the default: not every polled agent is on loopback"
                    : "the default: every polled agent is on loopback");
            }
            socketReasons.put(local, String.join("; ", reasons));
        }
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
        return nodes.size() + links.size();
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
        LOG.info("SNMP poller: {} workstations, {} switch ports, {} connections, every {} ms", nodes.size(), links.size(),
            connections.size(), pollIntervalMillis);
        if (!sockets.isEmpty()) {
            final List<String> bound = new ArrayList<>();
            // The address as bound, not as the socket reports it (a dual-stack wildcard reads "::").
            sockets.forEach((local, socket) -> bound.add(local.getHostAddress()
                + (local.isAnyLocalAddress() ? " (every interface)" : "") + " port " + socket.getListenAddress().getPort()
                + " (" + socketReasons.get(local) + ")"));
            LOG.info("SNMP poller sends from {}", String.join(" and ", bound));
        }
    }

    /** @return where the poller's UDP sockets are bound, one per distinct local address (thread-safe) */
    List<InetSocketAddress> localAddresses() {
        final List<InetSocketAddress> bound = new ArrayList<>();
        for (final DefaultUdpTransportMapping socket : sockets.values()) {
            final UdpAddress address = socket.getListenAddress();
            bound.add(new InetSocketAddress(address.getInetAddress(), address.getPort()));
        }
        return List.copyOf(bound);
    }

    /** Asks the next slice's sources; a failure is counted by the poller's agent runner, and polling goes on. */
    private void pollSlice() {
        try {
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
            final long outcomes = polled.get(i).outcomes();
            if (outcomes != deliveredOutcomes[i]) {
                deliveredOutcomes[i] = outcomes;
                for (final Wiring wiring : wiringsOfPolled.get(i)) {
                    deliver(wiring);
                }
            }
        }
    }

    private void deliver(final Wiring wiring) {
        if (!delivered.containsKey(wiring.indexRef()) && !settled(wiring)) {
            // Nothing read yet: leave the row as it is (fresh, or restored from the state file)
            // until a value arrives or a source turns out UNKNOWN.
            return;
        }
        final PolledValues values = valuesOf(wiring);
        if (!values.equals(delivered.get(wiring.indexRef()))) {
            delivered.put(wiring.indexRef(), values);
            sink.polled(values, Math.max(lastAnswerNanos(wiring.client()), Math.max(lastAnswerNanos(wiring.peer()),
                lastAnswerNanos(wiring.port()))));
        }
    }

    private static boolean settled(final Wiring wiring) {
        return wiring.client() != null && wiring.client().settled() || wiring.peer() != null && wiring.peer().settled()
            || wiring.port() != null && wiring.port().settled();
    }

    private static PolledValues valuesOf(final Wiring wiring) {
        return new PolledValues(wiring.indexRef(), wiring.client() != null, percent(wiring.client()), wiring.peer() != null,
            percent(wiring.peer()), wiring.port() != null, percent(wiring.port()));
    }

    private static long lastAnswerNanos(final PolledSource source) {
        return source == null ? Long.MIN_VALUE : source.lastAnswerNanos();
    }

    private static short percent(final PolledSource source) {
        return (short) (source == null ? -1 : source.percent());
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
    public java.util.Map<String, Boolean> sourcesUp() {
        final Map<String, Boolean> up = new LinkedHashMap<>();
        nodes.forEach((name, source) -> up.put(name, !source.unknown()));
        links.forEach((name, source) -> up.put(name, !source.unknown()));
        return up;
    }

    /**
     * @return per polled node or link name, how often its agent refreshes the counters it is read from, seconds, as the
     *         polls have seen it (the median interval between changed readings); sources not yet seen are left out
     *         (thread-safe)
     */
    public Map<String, Double> counterRefreshSeconds() {
        final Map<String, Double> refresh = new LinkedHashMap<>();
        nodes.forEach((name, source) -> putRefresh(refresh, name, source));
        links.forEach((name, source) -> putRefresh(refresh, name, source));
        return refresh;
    }

    private static void putRefresh(final Map<String, Double> refresh, final String name, final PolledSource source) {
        final long nanos = source.counterRefreshNanos();
        if (nanos > 0) {
            refresh.put(name, nanos / 1e9);
        }
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
