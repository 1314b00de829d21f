package org.latencyserver.systemtests.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.TlsStores;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.server.security.LocalCertificateAuthority;
import org.latencyserver.systemtests.kit.Estimates;
import org.latencyserver.systemtests.kit.LogWatch;
import org.latencyserver.systemtests.kit.ReadyProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.systemtests.kit.TestCertificates;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.omg.CORBA.ORB;

/**
 * The writers' command lines against a server that takes writes only over TLS, each in its own
 * process as an operator runs them: {@code ./latency profile load} with and without a planner
 * certificate, and client agents with their node's certificate (it measures) and with another
 * node's (it sees no tickets and leaves the requests alone).
 */
class SecuredWritersProcessTest {

    private static final String PASSWORD_ENV = TestCertificates.PASSWORD_VARIABLE;

    @TempDir
    Path directory;

    @Test
    void writersWithTheirCertificatesWriteAndWithoutThemAreRefused() throws Exception {
        final Path certs = directory.resolve("certs");
        final LocalCertificateAuthority ca = LocalCertificateAuthority.open(certs, null);
        ca.issue("server", LocalCertificateAuthority.subject("server", "server"), LocalCertificateAuthority.Usage.SERVER);
        ca.issue("agent-ws1", LocalCertificateAuthority.subject("agent", "ws1"), LocalCertificateAuthority.Usage.CLIENT);
        ca.issue("agent-ws2", LocalCertificateAuthority.subject("agent", "ws2"), LocalCertificateAuthority.Usage.CLIENT);
        ca.issue("operator-ops", LocalCertificateAuthority.subject("operator", "ops"), LocalCertificateAuthority.Usage.CLIENT);
        ca.issue("planner-plan", LocalCertificateAuthority.subject("planner", "plan"), LocalCertificateAuthority.Usage.CLIENT);
        final Map<String, String> password = Map.of(PASSWORD_ENV, ca.password());

        final Path profiles = Path.of("../profiles").toAbsolutePath().normalize();
        final Path config = TestbedConfigLines.pushedWs1Ws2OnAtmPort(ServerYaml.named("SecuredTestbed")
            .stateFile(directory.resolve("state.json"))
            .measurement("round_trips", 500).measurement("warmup_round_trips", 100).measurement("timeout_millis", 30000)
            .measurement("min_interval_millis", 0)
            .profile(profiles.resolve("thesis-tac4-corba.json")), "ws1")
            .connection(Connection.of(4, "ws1", "ws2", 3).link("atm-port").calibration("thesis").probeRatePerSecond(0))
            .section("security", "tls", Map.of("keystore", certs.resolve("server.p12").toString(), "truststore", ca.trustStore().toString()))
            .section("security", "principals", List.of(
                principal(LocalCertificateAuthority.subject("agent", "ws1"), "agent", "ws1"),
                principal(LocalCertificateAuthority.subject("agent", "ws2"), "agent", "ws2"),
                principal(LocalCertificateAuthority.subject("operator", "ops"), "operator", null),
                principal(LocalCertificateAuthority.subject("planner", "plan"), "planner", null)))
            .writeTo(directory.resolve("secured.yaml"));
        final Path serverIor = directory.resolve("server.ior");
        final Path peerIor = directory.resolve("peer-ws2.ior");
        final ORB operatorOrb = OrbSupport.init(new String[0], OrbSupport.withTlsClient(OrbSupport.properties("127.0.0.1", 0, 10_000),
            new TlsStores(certs.resolve("operator-ops.p12"), ca.trustStore(), ca.password())));
        try (SystemUnderTest system = SystemUnderTest.in(directory)) {
            final ReadyProcess server = system.start(system.serverLaunch("server", config).args("--metrics-port", "-1").env(password));
            assertEquals("1", server.ready().fact("connections"), server.log());
            system.start(system.launch(Component.PEER_AGENT).name("peer").args("--name", "ws2", "--ior-file", peerIor.toString()));
            final LatencyService asOperator = LatencyServiceHelper.narrow(operatorOrb.string_to_object(
                Files.readString(serverIor).trim()));

            // profile load: refused without a certificate, loaded with the planner's.
            final Path profile = directory.resolve("tac4.json");
            Files.copy(profiles.resolve("thesis-tac4-corba.json"), profile);
            {
                final ChildProcess plain = system.launch(Component.PROFILER).name("load-plain")
                    .args("load", profile.toString(), "--server", serverIor.toString()).start();
                assertEquals(1, plain.awaitExit(Duration.ofSeconds(60)), plain.log());
                assertTrue(plain.log().contains("REFUSED: load_profile needs the planner role"), plain.log());
            }
            {
                final ChildProcess planner = system.launch(Component.PROFILER).name("load-planner").env(password)
                    .args("load", profile.toString(), "--server", serverIor.toString(),
                        "--tls-keystore", certs.resolve("planner-plan.p12").toString(), "--tls-truststore", ca.trustStore().toString())
                    .start();
                assertEquals(0, planner.awaitExit(Duration.ofSeconds(60)), planner.log());
                assertTrue(planner.log().contains("LOADED " + profile), planner.log());
            }

            // An agent with another node's certificate sees connection 4's request without its ticket.
            {
                final ChildProcess stranger = startAgent(system, "ws2", certs, ca, serverIor, peerIor);
                // The IDL lists no subscriptions: this one wait is for the agent's line saying it subscribed.
                LogWatch.await(stranger, "subscribed to measurement requests", Duration.ofSeconds(30));
                asOperator.PutMibUpdates(new IdlMibUpdates((short) 4, (short) 10, (short) 10, (short) 50), (short) 4);
                LogWatch.await(stranger, "requests for node ws1 come without a ticket", Duration.ofSeconds(30));
                assertFalse(stranger.log().contains("submitted"), stranger.log());
                system.stop(stranger);
            }
            // Its own node's agent measures it.
            {
                final ChildProcess agent = startAgent(system, "ws1", certs, ca, serverIor, peerIor);
                LogWatch.await(agent, "submitted mean", Duration.ofSeconds(90));
                final Estimate estimate = Estimates.await(asOperator, 4);
                assertTrue(estimate.basis.contains("measurement ticket"), estimate.basis);
            }
        } finally {
            operatorOrb.shutdown(false);
        }
    }

    /**
     * Starts a client agent for a node with that node's certificate (agent-NODE.p12), polling every
     * 500 ms without probes, against the server and the peer on ws2.
     */
    private static ChildProcess startAgent(final SystemUnderTest system, final String node, final Path certs,
                                           final LocalCertificateAuthority ca, final Path serverIor, final Path peerIor)
        throws Exception {
        return system.start(system.launch(Component.CLIENT_AGENT).name("agent-" + node).env(Map.of(PASSWORD_ENV, ca.password()))
            .args("--server", serverIor.toString(), "--peer", "ws2=" + peerIor,
                "--poll-millis", "500", "--jit-warmup-seconds", "0", "--no-probe",
                "--tls-keystore", certs.resolve("agent-" + node + ".p12").toString(), "--tls-truststore", ca.trustStore().toString()))
            .child();
    }

    /** One {@code security.principals} entry: the certificate subject, its one role, and the node it writes for (or none). */
    private static Map<String, Object> principal(final String subject, final String role, final String node) {
        final Map<String, Object> principal = new LinkedHashMap<>();
        principal.put("subject", subject);
        principal.put("roles", List.of(role));
        if (node != null) {
            principal.put("node", node);
        }
        return principal;
    }
}
