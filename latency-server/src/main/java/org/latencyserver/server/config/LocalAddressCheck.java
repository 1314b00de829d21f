package org.latencyserver.server.config;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.latencyserver.core.input.InputMapping;

/**
 * Checks an snmp block's {@code local_address}: an IP address (no host name: what it resolves to
 * could change under the server) that a UDP socket can be bound to on this machine, and that can
 * reach the block's agent (a loopback address reaches only a loopback agent, and the address
 * families agree unless it is the wildcard).
 *
 * <p>Binds and closes one UDP socket on an ephemeral port to learn whether the address is this
 * machine's. Stateless; thread-safe.
 */
final class LocalAddressCheck {

    private static final Pattern IPV4 = Pattern.compile("([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})");
    private static final String EXPECTED = "expected an IP address of this machine, e.g. 127.0.0.1, or 0.0.0.0 for all "
        + "interfaces";

    private LocalAddressCheck() {
    }

    /**
     * Reports what is wrong with the block's {@code local_address}, at that key.
     *
     * @param block        the snmp block
     * @param localAddress the value of {@code local_address}
     * @param agentHost    the host part of the block's {@code address}, null when that was bad (reported)
     */
    static void check(final InputMapping block, final String localAddress, final String agentHost) {
        final InetAddress local = literal(localAddress);
        if (local == null) {
            block.fault("local_address", EXPECTED + ", was '" + localAddress + "'");
            return;
        }
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(local, 0))) {
            socket.getLocalPort(); // bound: the address is this machine's
        } catch (IOException e) {
            block.fault("local_address", localAddress + " is not an address a UDP socket can be bound to on this machine ("
                + e.getMessage() + "); " + EXPECTED);
            return;
        }
        final InetAddress agent = agentHost == null ? null : literal(agentHost);
        if (agent == null || local.isAnyLocalAddress()) {
            return; // an agent named by host name is resolved when the poller starts
        }
        if (local.isLoopbackAddress() && !agent.isLoopbackAddress()) {
            block.fault("local_address", "the loopback address " + localAddress + " cannot reach the agent at " + agentHost
                + ", which is not on loopback: use an address of the interface towards it, or remove local_address");
        } else if (local instanceof Inet4Address != agent instanceof Inet4Address) {
            block.fault("local_address", localAddress + " and the agent's " + agentHost
                + " are of different IP versions: use an address of the agent's version, or remove local_address");
        }
    }

    /** @return the address, or null when the text is no IPv4 or IPv6 literal (never a name lookup) */
    static InetAddress literal(final String text) {
        final Matcher ipv4 = IPV4.matcher(text);
        try {
            if (ipv4.matches()) {
                final byte[] bytes = new byte[4];
                for (int i = 0; i < 4; i++) {
                    final int octet = Integer.parseInt(ipv4.group(i + 1));
                    if (octet > 255) {
                        return null;
                    }
                    bytes[i] = (byte) octet;
                }
                return InetAddress.getByAddress(bytes);
            }
            // With a colon, InetAddress parses an IPv6 literal and never looks a name up.
            return text.indexOf(':') >= 0 && text.matches("[0-9A-Fa-f:.]+") ? InetAddress.getByName(text) : null;
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
