package org.latencyserver.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.latencyserver.agent.measure.CorbaRoundTrips;
import org.latencyserver.agent.measure.RoundTrip;
import org.latencyserver.agent.measure.RoundTripLoop;
import org.latencyserver.agent.measure.RunResult;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.PinnedIdentity;
import org.latencyserver.orb.TlsPinning;
import org.latencyserver.orb.TlsStores;
import org.latencyserver.server.security.LocalCertificateAuthority;
import org.omg.CORBA.ORB;

/**
 * What pinning peers ({@code client-agent --pin-peers}) costs a round trip: the client agent's CORBA round trip
 * ({@code fm1} arrays, the measurement loop) to one peer agent in its own JVM that serves plain IIOP and IIOP/TLS
 * ({@code --tls-port}), over three paths measured in turn in one run on loopback:
 * <ol>
 *   <li>plain IIOP, as an agent without {@code --pin-peers} measures;</li>
 *   <li>IIOP/TLS without the pin check (a TLS-only ORB): what TLS alone adds;</li>
 *   <li>IIOP/TLS pinned ({@link TlsPinning}, the peer certificate checked on each call): what an agent with
 *       {@code --pin-peers} measures.</li>
 * </ol>
 * Certificates come from {@code ./latency certs}'s own CA code, in a temporary directory. Rounds alternate the
 * paths so that machine noise falls on all alike; each path is warmed before the first round, so the cold TLS
 * handshake is not in the figures (it is timed on its own, once per path, as the first call).
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.PinnedRoundTripHarness [SIZE_BYTES] [ROUND_TRIPS] [ROUNDS]}
 */
public final class PinnedRoundTripHarness {

    private PinnedRoundTripHarness() {
    }

    /**
     * @param args message size (default 256 B), round trips per run (default 20,000), rounds (default 3)
     * @throws Exception when a process or call fails
     */
    public static void main(final String[] args) throws Exception {
        final int sizeBytes = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        final int roundTrips = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        final int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        try (TemporaryDirectory scratch = TemporaryDirectory.create("pinned-harness")) {
            final Path directory = scratch.path();
            final LocalCertificateAuthority ca = LocalCertificateAuthority.open(directory.resolve("certs"), null);
            final Path peerStore = ca.issue("peer-bench", LocalCertificateAuthority.subject(PinnedIdentity.PEER_ROLE, "bench"),
                LocalCertificateAuthority.Usage.SERVER_AND_CLIENT);
            final Path agentStore = ca.issue("agent-bench", LocalCertificateAuthority.subject("agent", "bench"),
                LocalCertificateAuthority.Usage.CLIENT);
            final TlsStores agentStores = new TlsStores(agentStore, ca.trustStore(), ca.password());
            final ORB plainOrb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
            final ORB tlsOrb = OrbSupport.init(new String[0],
                OrbSupport.withTlsClient(OrbSupport.properties("127.0.0.1", 0, 10_000), agentStores));
            final ORB pinningOrb = OrbSupport.init(new String[0],
                TlsPinning.pinningClient(OrbSupport.properties("127.0.0.1", 0, 10_000), agentStores));
            try (ProcessKit kit = ProcessKit.fromThisClasspath(directory)) {
                final ChildProcess peer = kit.launch(Component.PEER_AGENT).name("peer")
                    .env(TlsStores.DEFAULT_PASSWORD_ENV, ca.password())
                    .args("--name", "bench", "--ior-file", directory.resolve("peer.ior").toString(), "--tls-port", "0",
                        "--tls-keystore", peerStore.toString(), "--tls-truststore", ca.trustStore().toString()).start();
                final String ior = peer.awaitReady(Duration.ofSeconds(60)).reference("peer");
                final String[] labels = {"plain IIOP (no --pin-peers)", "IIOP/TLS, no pin check", "IIOP/TLS pinned (--pin-peers)"};
                final RoundTrip[] paths = new RoundTrip[3];
                final EchoPeer[] peers = {
                    EchoPeerHelper.unchecked_narrow(plainOrb.string_to_object(ior)),
                    EchoPeerHelper.unchecked_narrow(tlsOrb.string_to_object(ior)),
                    EchoPeerHelper.unchecked_narrow(TlsPinning.pin(pinningOrb.string_to_object(ior), PinnedIdentity.peer("bench")))};
                System.out.printf(Locale.ROOT, "Round trips of %d B on loopback to one peer agent, %d per run, %d rounds (times in us)%n",
                    sizeBytes, roundTrips, rounds);
                for (int path = 0; path < paths.length; path++) {
                    final long startNanos = System.nanoTime();
                    paths[path] = CorbaRoundTrips.to(peers[path], sizeBytes); // its first call opens the connection
                    System.out.printf(Locale.ROOT, "first call (connection opened, echo checked), %s: %.1f ms%n", labels[path],
                        (System.nanoTime() - startNanos) / 1e6);
                }
                final RoundTripLoop loop = new RoundTripLoop();
                for (final RoundTrip path : paths) {
                    loop.run(path, 5_000, 1, null);
                }
                System.out.printf(Locale.ROOT, "%-44s %9s %9s %9s %12s%n", "path", "mean", "p50", "p99", "p50 vs plain");
                for (int round = 1; round <= rounds; round++) {
                    final RunResult[] runs = new RunResult[paths.length];
                    for (int path = 0; path < paths.length; path++) {
                        runs[path] = loop.run(paths[path], 0, roundTrips, null);
                    }
                    final double plainP50 = runs[0].histogramNanos().getValueAtPercentile(50);
                    for (int path = 0; path < paths.length; path++) {
                        System.out.printf(Locale.ROOT, "%-44s %9.1f %9.1f %9.1f %12.2f%n", "round " + round + ": " + labels[path],
                            runs[path].meanNanos() / 1e3, runs[path].histogramNanos().getValueAtPercentile(50) / 1e3,
                            runs[path].histogramNanos().getValueAtPercentile(99) / 1e3,
                            runs[path].histogramNanos().getValueAtPercentile(50) / plainP50);
                    }
                }
            } finally {
                pinningOrb.shutdown(false);
                tlsOrb.shutdown(false);
                plainOrb.shutdown(false);
            }
        }
    }
}
