package org.latencyserver.emulator;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import org.snmp4j.TransportStateReference;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.transport.AbstractTransportMapping;

/**
 * An SNMP4J transport over one agent's non-blocking UDP channel, without a thread of its own: a
 * {@link UdpSelectorLoop} reads the channel and calls {@link #deliver}, which hands the datagram to
 * the agent's message dispatcher; the dispatcher's answer comes back through {@link #sendMessage} on
 * the same thread. The channel belongs to the {@link SnmpEndpoint} that opened it.
 *
 * <p>Thread-safety: {@link #deliver} and {@link #sendMessage} are called on the loop's thread.
 */
final class ChannelTransport extends AbstractTransportMapping<UdpAddress> {
    private final DatagramChannel channel;
    private final UdpAddress listenAddress;

    /** @param channel a bound, non-blocking channel */
    ChannelTransport(DatagramChannel channel) throws IOException {
        this.channel = channel;
        InetSocketAddress local = (InetSocketAddress) channel.getLocalAddress();
        this.listenAddress = new UdpAddress(local.getAddress(), local.getPort());
    }

    /** Hands one received datagram to the agent's dispatcher. */
    void deliver(InetSocketAddress from, ByteBuffer message) {
        UdpAddress peer = new UdpAddress(from.getAddress(), from.getPort());
        fireProcessMessage(peer, message, new TransportStateReference(this, peer, null, SecurityLevel.undefined,
                SecurityLevel.undefined, false, channel));
    }

    @Override
    public Class<? extends Address> getSupportedAddressClass() {
        return UdpAddress.class;
    }

    @Override
    public UdpAddress getListenAddress() {
        return listenAddress;
    }

    /** Sends without blocking; when the socket's send buffer is full the answer is lost, as UDP may lose it. */
    @Override
    public void sendMessage(UdpAddress address, byte[] message, TransportStateReference tmStateReference,
            long timeoutMillis, int maxRetries) throws IOException {
        channel.send(ByteBuffer.wrap(message), new InetSocketAddress(address.getInetAddress(), address.getPort()));
    }

    /** Nothing to do: the endpoint closes the channel through its loop. */
    @Override
    public void close() {
    }

    /** Nothing to do: the loop reads the channel. */
    @Override
    public void listen() {
    }

    @Override
    public boolean isListening() {
        return channel.isOpen();
    }
}
