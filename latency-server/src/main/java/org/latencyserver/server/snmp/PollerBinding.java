package org.latencyserver.server.snmp;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collection;

/**
 * Which local address the poller sends from when an agent's snmp block names none
 * ({@code local_address} absent): the loopback when every such agent is on a loopback address, so
 * the poller's socket is not reachable from any network, else the wildcard, so the system's routes
 * choose the interface towards each agent.
 *
 * <p>Stateless; thread-safe.
 */
final class PollerBinding {

    /** 127.0.0.1. */
    static final InetAddress LOOPBACK_V4 = address(new byte[] {127, 0, 0, 1});
    /** ::1, for agents all on IPv6 loopback. */
    static final InetAddress LOOPBACK_V6 = address(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
    /** 0.0.0.0: every interface (as before local_address existed). */
    static final InetAddress WILDCARD = address(new byte[] {0, 0, 0, 0});

    private PollerBinding() {
    }

    /**
     * @param agents the addresses of the agents whose snmp block names no local address; may be empty
     * @return 127.0.0.1 when they are all on IPv4 loopback, ::1 when all on IPv6 loopback, else 0.0.0.0
     */
    static InetAddress defaultFor(final Collection<InetAddress> agents) {
        if (!agents.isEmpty() && agents.stream().allMatch(InetAddress::isLoopbackAddress)) {
            if (agents.stream().allMatch(a -> a instanceof Inet4Address)) {
                return LOOPBACK_V4;
            }
            if (agents.stream().allMatch(a -> a instanceof Inet6Address)) {
                return LOOPBACK_V6;
            }
        }
        return WILDCARD;
    }

    private static InetAddress address(final byte[] bytes) {
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new AssertionError("a 4 or 16 byte address is always valid", e);
        }
    }
}
