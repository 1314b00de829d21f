package org.latencyserver.systemtests.agent;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.latencyserver.launch.ChildProcess;

/**
 * The processes a test class shares: its testbed's server, a peer agent (log "peer") and a client agent (log "agent"),
 * started by the class's {@code @BeforeAll} through {@link #startPeerAndAgent} and closed after its last test, also when
 * starting them failed halfway. The fields are static, so one for all the subclasses: they take the lock {@link #FIELDS}
 * (inherited), and so run one after another even when test classes run in parallel; the fields belong to the class running.
 */
@ResourceLock(PeerAndAgentTest.FIELDS)
abstract class PeerAndAgentTest {

    /** The lock of this class's static fields, held by each subclass while it runs. */
    static final String FIELDS = "org.latencyserver.systemtests.agent.PeerAndAgentTest";

    @TempDir
    static Path directory;
    static AgentTestbed testbed;
    static ChildProcess agent;
    private static ChildProcess peer;

    /**
     * @param started   the class's testbed, started in {@link #directory}
     * @param agentArgs the client agent's arguments beyond those {@link AgentTestbed#startAgent} gives
     */
    static void startPeerAndAgent(final AgentTestbed started, final String... agentArgs) throws Exception {
        testbed = started;
        peer = testbed.startPeer("peer");
        agent = testbed.startAgent("agent", agentArgs);
    }

    @AfterAll
    static void closePeerAndAgent() throws Exception {
        try {
            AgentTestbed.closeAll(agent, peer, testbed);
        } finally {
            agent = null;
            peer = null;
            testbed = null;
        }
    }
}
