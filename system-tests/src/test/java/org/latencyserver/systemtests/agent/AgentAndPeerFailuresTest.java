package org.latencyserver.systemtests.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.systemtests.kit.LogWatch;

/**
 * Agent failures with real processes: a client agent killed mid-measurement (the
 * request times out, is re-issued with a new ticket and completes when an agent returns; nothing
 * half-submitted) and a peer agent killed (the failure is logged with its reason and retried until
 * the peer is back).
 */
class AgentAndPeerFailuresTest {

    @TempDir
    Path directory;

    @Test
    void aKilledAgentsRequestIsReissuedAndCompletedByTheNextAgentWithNothingHalfSubmitted() throws Exception {
        // 20,000 round trips take a few seconds here, long enough to kill the agent in the middle;
        // the 15 s time-out then re-issues the request.
        try (AgentTestbed testbed = AgentTestbed.start(directory, 20_000, 15_000);
             ChildProcess peer = testbed.startPeer("peer")) {
            final ChildProcess doomed = testbed.startAgent("agent-1", "--node", "ws1");
            testbed.push(10, 10, 20);
            final Matcher started = LogWatch.await(doomed, "connection 4 ticket (-?\\d+) \\(ws1 -> ws2, 256 B\\): measuring",
                Duration.ofSeconds(30));
            final long firstTicket = Long.parseLong(started.group(1));
            doomed.kill(); // kill -9 mid-measurement
            assertTrue(!doomed.log().contains("ticket " + firstTicket + " (ws1 -> ws2, 256 B): submitted"),
                "the agent was killed before it could submit:\n" + doomed.log());

            final TableRow waiting = testbed.latserv.RequestTableStatus((short) 4);
            assertEquals(1, waiting.update_required_flag);
            assertEquals(0, waiting.latency_data_provided, "nothing was submitted for the killed run");

            // After the time-out the server re-issues the request under a new ticket.
            final long reissuedTicket = awaitReissue(testbed, firstTicket);
            assertNotEquals(firstTicket, reissuedTicket);

            try (ChildProcess successor = testbed.startAgent("agent-2", "--node", "ws1")) {
                LogWatch.await(successor, "connection 4 ticket " + reissuedTicket + " \\(ws1 -> ws2, 256 B\\): submitted",
                    Duration.ofSeconds(60));
                final TableRow done = awaitMeasured(testbed, (short) 4);
                assertEquals(0, done.update_required_flag);
                final Estimate estimate = testbed.service.current_estimate((short) 4);
                assertTrue(estimate.basis.contains("ticket " + reissuedTicket), estimate.basis);
                assertTrue(peer.isAlive());
            }
        }
    }

    @Test
    void aKilledPeerIsReportedWithItsReasonAndRetriedUntilItReturns() throws Exception {
        try (AgentTestbed testbed = AgentTestbed.start(directory, 2_000, 60_000)) {
            final ChildProcess firstPeer = testbed.startPeer("peer-1");
            try (ChildProcess agent = testbed.startAgent("agent", "--node", "ws1")) {
                testbed.push(10, 10, 20);
                awaitMeasured(testbed, (short) 4);
                firstPeer.kill();

                final int logMark = agent.log().length();
                testbed.push(80, 80, 20);
                final Matcher failure = LogWatch.await(agent,
                    "connection [46] ticket (-?\\d+) \\(ws1 -> ws2, 256 B\\): peer ws2 failed: (.+); retrying", logMark,
                    Duration.ofSeconds(30));
                final String reason = failure.group(2);
                assertTrue(reason.contains("COMM_FAILURE") || reason.contains("TRANSIENT") || reason.contains("OBJECT_NOT_EXIST"),
                    "the reason names the CORBA failure: " + reason);
                assertEquals(1, testbed.latserv.RequestTableStatus((short) 4).update_required_flag, "still pending");

                try (ChildProcess secondPeer = testbed.startPeer("peer-2")) {
                    final TableRow done = awaitMeasured(testbed, (short) 4);
                    assertEquals(0, done.update_required_flag);
                    assertTrue(testbed.service.current_estimate((short) 4).basis.contains("67-100/67-100"),
                        "measured in the new state after the peer returned");
                    assertTrue(secondPeer.isAlive());
                }
            }
        }
    }

    private static long awaitReissue(final AgentTestbed testbed, final long firstTicket) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (final MeasurementRequest request : testbed.service.pending_measurements()) {
                if (request.index_ref == 4 && request.ticket != firstTicket) {
                    return request.ticket;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("connection 4's request was not re-issued after its time-out");
    }

    private static TableRow awaitMeasured(final AgentTestbed testbed, final short indexRef) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Thread.sleep(200);
        while (System.nanoTime() < deadline) {
            final TableRow row = testbed.latserv.RequestTableStatus(indexRef);
            if (row.update_required_flag == 0 && row.latency_data_provided == 1) {
                return row;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("connection " + indexRef + " was not measured:\n" + testbed.server.log());
    }
}
