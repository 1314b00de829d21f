package org.latencyserver.systemtests.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Order;
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
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.omg.CORBA.NO_PERMISSION;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;

/**
 * The launchers against a naming service that checks who binds, each in its own process as an
 * operator runs them ({@code docs/operator-guide.md}, "The naming service"): {@code ./latency certs
 * --peer} makes the stores and the principals file; the server binds {@code LatencyServer} and the
 * peer agent {@code peers/ws2} over TLS with their own certificates; an impostor's {@code rebind},
 * {@code unbind} and {@code bind_new_context} of both names are refused, plain and with an agent's
 * certificate, and logged with their count; lookups over plain IIOP still resolve the genuine objects;
 * and the client agent, finding its peer by name, measures the genuine peer agent, not the impostor's
 * echo object.
 */
@Order(11) // a long class, started early (junit-platform.properties)
class GuardedNamingServiceProcessTest {

    private static final String PASSWORD = "guarded-naming-pass";

    @TempDir
    Path directory;

    @Test
    void onlyTheOwnersCertificateChangesANameAndTheAgentMeasuresTheGenuinePeer() throws Exception {
        final Path certs = directory.resolve("certs");
        final Map<String, String> password = Map.of("LATENCY_TLS_PASSWORD", PASSWORD);
        try (SystemUnderTest system = SystemUnderTest.in(directory)) {
            system.launchOneShot("certs", Component.CERTS).env(password)
                .args("--dir", certs.toString(), "--server", "server", "--peer", "ws2", "--agent", "ws1", "--operator", "ops")
                .start().awaitSuccess(Duration.ofSeconds(120));
            final int plainPort = SystemUnderTest.freeTcpPort();
            final int tlsPort = SystemUnderTest.freeTcpPort();
            final String readers = "corbaloc::127.0.0.1:" + plainPort + "/NameService";
            final String writers = "corbaloc:ssliop:1.2@127.0.0.1:" + tlsPort + "/NameService";
            final Path trust = certs.resolve("trust.p12");
            final ReadyProcess naming = system.start(system.launch(Component.NAMING_SERVICE).env(password).args(
                "--port", Integer.toString(plainPort), "--tls-port", Integer.toString(tlsPort),
                "--tls-keystore", certs.resolve("naming-service.p12").toString(), "--tls-truststore", trust.toString(),
                "--principals", certs.resolve("naming-principals").toString(), "--db-dir", directory.resolve("names").toString()));

            final ReadyProcess server = system.start(system.serverLaunch("server", serverConfig(certs, trust)).env(password)
                .args("--metrics-port", "-1", "--naming", writers));
            final ReadyProcess peer = system.start(system.launch(Component.PEER_AGENT).name("peer").env(password).args(
                "--name", "ws2", "--naming", writers, "--ior-file", directory.resolve("peer-ws2.ior").toString(),
                "--tls-keystore", certs.resolve("peer-ws2.p12").toString(), "--tls-truststore", trust.toString()));

            final ORB plain = system.orb();
            final NamingContextExt asReader = NamingContextExtHelper.narrow(plain.string_to_object(readers));
            // The impostor's object: any reference will do (a measured echo object of its own would answer in 3 ms).
            final org.omg.CORBA.Object anyObject = asReader;
            final ORB agentOrb = OrbSupport.init(new String[0], OrbSupport.withTlsClient(OrbSupport.properties("127.0.0.1", 0, 10_000),
                new TlsStores(certs.resolve("agent-ws1.p12"), trust, PASSWORD)));
            try {
                final NamingContextExt asAgent = NamingContextExtHelper.narrow(agentOrb.string_to_object(writers));
                for (final NamingContextExt impostorContext : List.of(asReader, asAgent)) {
                    for (final String name : List.of("LatencyServer", "peers/ws2")) {
                        final Map<String, Function<NamingContextExt, Object>> changes = new LinkedHashMap<>();
                        changes.put("rebind", c -> call(() -> c.rebind(c.to_name(name), anyObject)));
                        changes.put("unbind", c -> call(() -> c.unbind(c.to_name(name))));
                        changes.put("bind_new_context", c -> call(() -> c.bind_new_context(c.to_name(name))));
                        changes.forEach((operation, change) -> assertThrows(NO_PERMISSION.class, () -> change.apply(impostorContext),
                            operation + " " + name + (impostorContext == asReader ? " over plain IIOP" : " with an agent's certificate")));
                    }
                }
            } finally {
                agentOrb.shutdown(false);
            }
            LogWatch.await(naming.child(), "refused for a plain IIOP caller", Duration.ofSeconds(10));

            // Lookups over plain IIOP resolve the genuine objects.
            assertEquals(plain.object_to_string(plain.string_to_object(server.ready().reference("server"))),
                plain.object_to_string(asReader.resolve_str("LatencyServer")));
            assertEquals(plain.object_to_string(plain.string_to_object(peer.ready().reference("peer"))),
                plain.object_to_string(asReader.resolve_str("peers/ws2")));

            // The client agent finds peers/ws2 by name and measures the genuine peer agent.
            final ChildProcess agent = system.start(system.launch(Component.CLIENT_AGENT).name("agent").env(password)
                .args("--server", "LatencyServer", "--naming", readers, "--node", "ws1", "--poll-millis", "500",
                    "--jit-warmup-seconds", "0", "--no-probe",
                    "--tls-keystore", certs.resolve("agent-ws1.p12").toString(), "--tls-truststore", trust.toString())).child();
            final ORB operatorOrb = OrbSupport.init(new String[0], OrbSupport.withTlsClient(
                OrbSupport.properties("127.0.0.1", 0, 10_000), new TlsStores(certs.resolve("operator-ops.p12"), trust, PASSWORD)));
            try {
                final LatencyService asOperator = LatencyServiceHelper.narrow(operatorOrb.string_to_object(server.ready().reference("server")));
                asOperator.PutMibUpdates(new IdlMibUpdates((short) 4, (short) 10, (short) 10, (short) 50), (short) 4);
                LogWatch.await(agent, "submitted mean", Duration.ofSeconds(90));
                final Estimate estimate = Estimates.await(asOperator, 4);
                assertTrue(estimate.basis.contains("measurement ticket"), estimate.basis);
            } finally {
                operatorOrb.shutdown(false);
            }
        }
    }

    /** A naming call whose checked exceptions are not what the test expects: rethrown unchecked. */
    private static Object call(final NamingCall call) {
        try {
            call.run();
            return null;
        } catch (org.omg.CORBA.SystemException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the naming service answered " + e, e);
        }
    }

    @FunctionalInterface
    private interface NamingCall {
        void run() throws Exception;
    }

    private Path serverConfig(final Path certs, final Path trust) throws Exception {
        final Path profiles = Path.of("../profiles").toAbsolutePath().normalize();
        return TestbedConfigLines.pushedWs1Ws2OnAtmPort(ServerYaml.named("LatencyServer")
                .stateFile(directory.resolve("state.json"))
                .measurement("round_trips", 500).measurement("warmup_round_trips", 100).measurement("timeout_millis", 30000)
                .measurement("min_interval_millis", 0)
                .profile(profiles.resolve("thesis-tac4-corba.json")), "ws1")
            .connection(Connection.of(4, "ws1", "ws2", 3).link("atm-port").calibration("thesis").probeRatePerSecond(0))
            .section("security", "tls", Map.of("keystore", certs.resolve("server.p12").toString(), "truststore", trust.toString()))
            .section("security", "principals", List.of(
                Map.of("subject", LocalCertificateAuthority.subject("agent", "ws1"), "roles", List.of("agent"), "node", "ws1"),
                Map.of("subject", LocalCertificateAuthority.subject("operator", "ops"), "roles", List.of("operator"))))
            .writeTo(directory.resolve("guarded.yaml"));
    }
}
