package org.latencyserver.server.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.config.LinkConfig;
import org.latencyserver.server.config.MibSource;
import org.latencyserver.server.config.NodeConfig;
import org.latencyserver.server.config.SnmpAccess;
import org.snmp4j.smi.TimeTicks;
import org.snmp4j.smi.UdpAddress;

/**
 * Where the poller's UDP sockets are bound: the loopback when every polled agent is on loopback,
 * the wildcard as soon as one is not, and an snmp block's {@code local_address} gets that agent a
 * socket of its own, which its requests really leave from.
 */
class PollerLocalAddressTest {

    private static final String COMMUNITY_ENV = "TEST_COMMUNITY";
    private static final String COMMUNITY = "s3cret-test";
    /** TEST-NET-1 (RFC 5737): no agent there; the poller is never started towards it. */
    private static final String UNREACHABLE_AGENT = "udp:192.0.2.1/161";

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (final AutoCloseable c : closing) {
            c.close();
        }
    }

    @Test
    void everyAgentOnLoopbackBindsThePollerToLoopbackAndTheAgentAnswersIt() throws Exception {
        final ScriptedAgent agent = agent();
        final SnmpPoller poller = poller(List.of(node("ws1", agent.address(), null)), List.of());
        assertEquals(List.of(PollerBinding.LOOPBACK_V4), addresses(poller.localAddresses()));
        poller.start();
        awaitAnswerFrom(agent);
        assertEquals(poller.localAddresses().get(0).getPort(), ((UdpAddress) agent.lastRequester()).getPort());
    }

    @Test
    void oneAgentOffLoopbackMakesTheDefaultTheWildcard() throws Exception {
        final ScriptedAgent agent = agent();
        final SnmpPoller poller = poller(List.of(node("ws1", agent.address(), null)), List.of(link(UNREACHABLE_AGENT, null)));
        assertEquals(1, poller.localAddresses().size());
        assertTrue(poller.localAddresses().get(0).getAddress().isAnyLocalAddress(), poller.localAddresses()::toString);
    }

    @Test
    void aConfiguredLocalAddressGetsItsOwnSocketWhichItsAgentsRequestsLeaveFrom() throws Exception {
        final ScriptedAgent agent = agent();
        // ws1 names loopback; the link, off loopback, takes the default: the wildcard.
        final SnmpPoller poller = poller(List.of(node("ws1", agent.address(), "127.0.0.1")),
            List.of(link(UNREACHABLE_AGENT, null)));
        final List<InetSocketAddress> bound = poller.localAddresses();
        assertEquals(2, bound.size(), bound::toString);
        assertEquals(PollerBinding.LOOPBACK_V4, bound.get(0).getAddress());
        assertTrue(bound.get(1).getAddress().isAnyLocalAddress(), bound::toString);
        poller.start();
        awaitAnswerFrom(agent);
        final UdpAddress requester = (UdpAddress) agent.lastRequester();
        assertEquals(new InetSocketAddress(PollerBinding.LOOPBACK_V4, bound.get(0).getPort()),
            new InetSocketAddress(requester.getInetAddress(), requester.getPort()), "ws1's requests leave from its own socket");
    }

    @Test
    void theDefaultIsLoopbackOnlyWhenEveryAgentIsOnLoopbackOfOneFamily() throws Exception {
        final InetAddress v4 = InetAddress.getByName("127.0.0.1");
        final InetAddress otherV4Loopback = InetAddress.getByName("127.0.0.2");
        final InetAddress v6 = InetAddress.getByName("::1");
        final InetAddress lan = InetAddress.getByName("192.0.2.1");
        assertEquals(PollerBinding.LOOPBACK_V4, PollerBinding.defaultFor(List.of(v4, otherV4Loopback)));
        assertEquals(PollerBinding.LOOPBACK_V6, PollerBinding.defaultFor(List.of(v6)));
        assertEquals(PollerBinding.WILDCARD, PollerBinding.defaultFor(List.of(v4, lan)));
        assertEquals(PollerBinding.WILDCARD, PollerBinding.defaultFor(List.of(v4, v6)), "one socket cannot be on both loopbacks");
        assertEquals(PollerBinding.WILDCARD, PollerBinding.defaultFor(List.of()));
    }

    private ScriptedAgent agent() throws Exception {
        final ScriptedAgent agent = new ScriptedAgent(COMMUNITY);
        agent.script(oid -> new TimeTicks(100));
        closing.add(0, agent);
        return agent;
    }

    private SnmpPoller poller(final List<NodeConfig> nodes, final List<LinkConfig> links) throws Exception {
        final SnmpPoller poller = new SnmpPoller(nodes, links, List.of(), 40, 3,
            name -> COMMUNITY_ENV.equals(name) ? COMMUNITY : null, values -> { }, System::nanoTime);
        closing.add(0, poller);
        return poller;
    }

    private static NodeConfig node(final String name, final String address, final String localAddress) {
        return new NodeConfig(name, (short) 1, WorkstationType.TAC_4, MibSource.SNMP,
            access(address, SnmpAccess.CpuSource.UCD_RAW, localAddress));
    }

    private static LinkConfig link(final String address, final String localAddress) {
        return new LinkConfig("port", MibSource.SNMP, access(address, null, localAddress), 3, 0);
    }

    private static SnmpAccess access(final String address, final SnmpAccess.CpuSource cpu, final String localAddress) {
        return new SnmpAccess(address, SnmpAccess.Version.V2C, COMMUNITY_ENV, null, null, null, null, null, cpu, 100, 0,
            localAddress);
    }

    private static List<InetAddress> addresses(final List<InetSocketAddress> bound) {
        return bound.stream().map(InetSocketAddress::getAddress).toList();
    }

    /** Waits for the agent's first answered request; fails after 10 s (far beyond a poll of 40 ms). */
    private static void awaitAnswerFrom(final ScriptedAgent agent) throws InterruptedException {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (agent.lastRequester() == null && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(agent.lastRequester() != null, "the agent was never asked");
    }
}
