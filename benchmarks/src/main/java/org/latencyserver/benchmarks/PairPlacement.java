package org.latencyserver.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.testkit.FreePorts;

/**
 * Where the processes of {@link StandbyLoadKillHarness} run: the naming service, the pair's two servers,
 * the workstation of the applications, writer, client agent and mirror (and of the harness itself), and
 * the peer agent's workstation. On loopback every one listens on 127.0.0.1 of this process's network;
 * on a testbed ({@link StandbyPairTestbed}) each is a host of its own — a network namespace with one
 * 198.18.0.0/15 address on a bridge —, so every call between them crosses that bridge.
 *
 * <p>Immutable.
 *
 * @param naming           the naming service's host
 * @param namingPort       the naming service's port
 * @param serverA          the host of the first server started (the first primary)
 * @param replicationPortA its replication (JGroups) port, {@code server.standby.listen}
 * @param serverB          the host of the second server started (the first standby)
 * @param replicationPortB its replication port
 * @param workstation      the applications' host (ws1): the harness's own ORB, the client agent, the mirror
 * @param peer             the peer agent's host (ws2)
 * @param description      one line saying where all this is, for the run's output
 */
record PairPlacement(Host naming, int namingPort, Host serverA, int replicationPortA, Host serverB, int replicationPortB,
                     Host workstation, Host peer, String description) {

    /** Port of the naming service on a testbed. */
    static final int TESTBED_NAMING_PORT = 2809;
    /**
     * Replication ports on a testbed by default: different for the two servers, as in the first runs on the testbed.
     * The same port on both hosts works as well since the stack's {@code FD_SOCK2} listens on each server's listen
     * address ({@code --replication-ports 7800,7800}).
     */
    static final int[] TESTBED_REPLICATION_PORTS = {7800, 7801};

    /**
     * A host: the address its processes listen on and the network namespace they run in.
     *
     * @param address   an IPv4 address of the host
     * @param namespace its network namespace ({@code ip netns list}), or null for this process's own
     */
    record Host(String address, String namespace) {

        /** @return the launch, run in this host's namespace when it has one */
        ProcessKit.Launch place(final ProcessKit.Launch launch) {
            return namespace == null ? launch : launch.inNetworkNamespace(namespace);
        }
    }

    /** @return everything on 127.0.0.1 of this process's network, on free ports (replication ports not 100 apart) */
    static PairPlacement loopback() {
        final Host local = new Host("127.0.0.1", null);
        final int namingPort = FreePorts.belowEphemeralRange();
        final int portA = FreePorts.belowEphemeralRange();
        int portB = FreePorts.belowEphemeralRange();
        while (Math.abs(portB - portA) == 100 || portB == portA) {
            portB = FreePorts.belowEphemeralRange();
        }
        return new PairPlacement(local, namingPort, local, portA, local, portB, local, local, "loopback (127.0.0.1)");
    }

    /**
     * @param status           a testbed's {@code status.json} whose hosts include {@link StandbyPairTestbed#HOSTS}
     * @param replicationPorts the replication ports of the servers on pa and pb
     * @return each process on its host of that testbed
     * @throws IOException when the file cannot be read or lacks a host
     */
    static PairPlacement onTestbed(final Path status, final int[] replicationPorts) throws IOException {
        final JsonNode json = new ObjectMapper().readTree(status.toFile());
        final Host naming = host(json, "nsh", status);
        final Host a = host(json, "pa", status);
        final Host b = host(json, "pb", status);
        final Host ws1 = host(json, "ws1", status);
        final Host ws2 = host(json, "ws2", status);
        return new PairPlacement(naming, TESTBED_NAMING_PORT, a, replicationPorts[0], b, replicationPorts[1], ws1, ws2,
            String.format(java.util.Locale.ROOT, "testbed %s: naming service on nsh (%s), servers on pa (%s:%d) and pb (%s:%d), applications,"
                + " writer, client agent and mirror on ws1 (%s), peer agent on ws2 (%s), each its own network namespace on switch sw1",
                json.path("testbed").asText("?"), naming.address(), a.address(), replicationPorts[0], b.address(), replicationPorts[1],
                ws1.address(), ws2.address()));
    }

    private static Host host(final JsonNode status, final String name, final Path file) throws IOException {
        for (final JsonNode host : status.path("hosts")) {
            if (name.equals(host.path("name").asText())) {
                final String address = host.path("address").asText();
                return new Host(address.contains("/") ? address.substring(0, address.indexOf('/')) : address,
                    host.path("namespace").asText());
            }
        }
        throw new IOException(file + ": the testbed has no host " + name + " (the standby pair needs " + String.join(", ",
            StandbyPairTestbed.HOSTS) + ")");
    }
}
