package org.latencyserver.emulator;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * One emulated SNMP agent on its own UDP address and port: answers GET, GETNEXT and GETBULK for the
 * OIDs of one {@link EmulatedMib}, over SNMPv2c (one community) and SNMPv3 (one USM user, authPriv
 * SHA + AES-128), each agent with its own engine ID ({@link MibResponder}, {@link AgentEngines}).
 *
 * <p>Two ways to read its socket: by default (the public constructor) an SNMP4J {@link Snmp} with a
 * listener thread of its own, as the emulator ran every agent until it had to run thousands; or,
 * when {@link Emulator} passes a {@link UdpSelectorLoop}, a non-blocking channel that the loop's one
 * thread serves together with every other agent's.
 *
 * <p>Thread-safe: requests are answered on the listener's or the loop's thread, reading only
 * immutable or atomic state. {@link #start()} and {@link #close()} are meant for one owner thread.
 */
public final class SnmpEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SnmpEndpoint.class);

    private final MibResponder responder;
    private final InetAddress bindAddress;
    private final int requestedUdpPort;
    private final AgentEngines engines;
    private final UdpSelectorLoop loop;
    private Snmp snmp;
    private DatagramChannel channel;
    private int boundUdpPort = -1;

    /**
     * An agent with a listener thread of its own.
     *
     * @param mib the values to serve
     * @param bindAddress the local address to listen on (loopback by default)
     * @param udpPort the UDP port, 0 for any free one
     * @param access the community and/or v3 user allowed to read
     * @param elapsedMicros the emulator's clock: microseconds since it started
     */
    public SnmpEndpoint(EmulatedMib mib, InetAddress bindAddress, int udpPort, AccessConfig access,
            LongSupplier elapsedMicros) {
        this(mib, bindAddress, udpPort, new AgentEngines(access), elapsedMicros, null);
    }

    /**
     * @param engines makes its SNMP engine (and holds who may read)
     * @param loop    the shared loop that reads its socket, or null for a listener thread of its own
     */
    SnmpEndpoint(EmulatedMib mib, InetAddress bindAddress, int udpPort, AgentEngines engines,
            LongSupplier elapsedMicros, UdpSelectorLoop loop) {
        this.responder = new MibResponder(mib, engines.access(), elapsedMicros);
        this.bindAddress = bindAddress;
        this.requestedUdpPort = udpPort;
        this.engines = engines;
        this.loop = loop;
    }

    /** Opens the UDP port and starts answering. @throws IOException if the port cannot be bound */
    public synchronized void start() throws IOException {
        MessageDispatcherImpl dispatcher = engines.dispatcher(name());
        if (loop == null) {
            DefaultUdpTransportMapping transport = new DefaultUdpTransportMapping(new UdpAddress(bindAddress, requestedUdpPort));
            snmp = new Snmp(dispatcher, transport);
            snmp.addCommandResponder(responder);
            snmp.listen();
            boundUdpPort = transport.getListenAddress().getPort();
            LOG.info("{} answers SNMP on udp:{}:{} ({})", name(), bindAddress.getHostAddress(), boundUdpPort, engines.access());
            return;
        }
        // The JDK's default (dual-stack) channel: one opened for INET alone refuses to bind to an
        // address ending in .255, such as 127.1.0.255, which a plain DatagramSocket binds to.
        DatagramChannel opened = DatagramChannel.open();
        try {
            opened.bind(new InetSocketAddress(bindAddress, requestedUdpPort));
            opened.configureBlocking(false);
            ChannelTransport transport = new ChannelTransport(opened);
            dispatcher.addCommandResponder(responder);
            transport.addTransportListener(dispatcher);
            boundUdpPort = transport.getListenAddress().getPort();
            loop.register(opened, transport);
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
        channel = opened;
        LOG.debug("{} answers SNMP on udp:{}:{} ({})", name(), bindAddress.getHostAddress(), boundUdpPort, engines.access());
    }

    /** @return the UDP port actually bound (useful when 0 was requested) */
    public synchronized int boundUdpPort() {
        if (boundUdpPort < 0) {
            throw new IllegalStateException("endpoint " + name() + " is not started");
        }
        return boundUdpPort;
    }

    /** @return the local address it listens on */
    public InetAddress bindAddress() {
        return bindAddress;
    }

    /** @return the emulated node's or link's name */
    public String name() {
        return responder.mib().name();
    }

    /** @return how many requests were answered so far */
    public long answeredRequests() {
        return responder.answeredRequests();
    }

    /** @return how many requests were dropped (bad community, user or security level) */
    public long droppedRequests() {
        return responder.droppedRequests();
    }

    /** Stops answering and frees the port; {@link #start()} may open it again. */
    @Override
    public synchronized void close() throws IOException {
        if (snmp != null) {
            snmp.close();
            snmp = null;
        }
        if (channel != null) {
            loop.closeChannel(channel);
            channel = null;
        }
    }

    /** @see MibResponder#answer */
    PDU answer(PDU request, int maxResponseBytes, long nowMicros) {
        return responder.answer(request, maxResponseBytes, nowMicros);
    }
}
