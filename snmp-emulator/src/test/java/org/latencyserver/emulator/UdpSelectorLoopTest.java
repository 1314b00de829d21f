package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** The agents' socket loop over real loopback UDP: a backlog is answered newest first, the rest shed. */
class UdpSelectorLoopTest {

    @Test
    void aRequesterWithSeveralDatagramsWaitingOnOneSocketGetsOnlyItsNewestHandledAndTheOthersAreShed() throws Exception {
        final InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (UdpSelectorLoop loop = new UdpSelectorLoop("test-agents");
             DatagramChannel channel = DatagramChannel.open();
             DatagramSocket first = new DatagramSocket(0, loopback);
             DatagramSocket second = new DatagramSocket(0, loopback)) {
            channel.bind(new InetSocketAddress(loopback, 0)).configureBlocking(false);
            final ChannelTransport transport = new ChannelTransport(channel);
            final Set<String> handled = ConcurrentHashMap.newKeySet();
            transport.addTransportListener(new org.snmp4j.transport.TransportListener() {
                @Override
                public <A extends org.snmp4j.smi.Address> void processMessage(final org.snmp4j.TransportMapping<? super A> mapping,
                                                                            final A from, final ByteBuffer message,
                                                                            final org.snmp4j.TransportStateReference state) {
                    handled.add(StandardCharsets.US_ASCII.decode(message).toString());
                }
            });
            // A backlog waiting before the loop serves the socket, as when the loop fell behind.
            for (final String text : new String[] {"first-1", "first-2", "first-3"}) {
                send(first, text, channel);
            }
            send(second, "second-1", channel);
            Thread.sleep(200); // all four are in the socket's buffer (loopback delivers at once)
            loop.register(channel, transport);

            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (handled.size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Thread.sleep(200); // nothing more is handled
            assertEquals(Set.of("first-3", "second-1"), handled, "the newest of each requester");
            assertEquals(2, loop.shed(), "first-1 and first-2");
            assertEquals(4, loop.datagramsReceived());
        }
    }

    private static void send(final DatagramSocket from, final String text, final DatagramChannel to) throws Exception {
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        from.send(new DatagramPacket(bytes, bytes.length, to.getLocalAddress()));
    }
}
