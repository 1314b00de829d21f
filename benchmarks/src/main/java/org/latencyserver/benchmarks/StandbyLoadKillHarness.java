package org.latencyserver.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.mirror.EstimateMirror;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.testkit.MetricsText;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.latencyserver.testkit.config.ServerYaml.Link;
import org.latencyserver.testkit.config.ServerYaml.Node;
import org.omg.CORBA.ORB;

/**
 * {@code kill -9} of the primary of a pair of server processes <em>under load</em>: the pair serves
 * partition {@code p1} of {@code StandbyPair} (so its names are {@code StandbyPair/p1} and
 * {@code StandbyPair/by-client/NODE}); all along, three applications ({@link LoadApplication}) call
 * {@code RequestStatus} and the extended calls, each finding the server its own way (by name,
 * corbaname URL, by-client name); a writer ({@link AcknowledgedWriter}) sends {@code PutMibUpdates}
 * every 2 ms; a real client agent measures the QoS 3 and 4 connections 4 and 6 against a real
 * peer agent, both finding the server by name; and a real {@code latency mirror} follows by name.
 *
 * <p>Before each kill this harness makes three acknowledged writes of its own whose values it
 * reads back from the primary ({@link KillChecks}): {@code PutMibUpdates} on connection 1,
 * {@code UpdateResponse} answering connection 5's request, {@code submit_measurement} answering
 * connection 7's; after the kill it checks all three on the new primary, and the writer's last
 * acknowledged value. It also flips ws1's load, so the agent has a measurement to make on the new
 * primary, and times the mirror's view of a change made on the new primary. The killed server is
 * started again and must stand by before the next kill.
 *
 * <p>Run from the repository root: {@code java -cp CP org.latencyserver.benchmarks.StandbyLoadKillHarness [KILLS]
 * [--testbed NAME [--replication-ports A,B]]} (default 20 kills; on the testbed ports 7800 and 7801, see
 * {@link PairPlacement#TESTBED_REPLICATION_PORTS}). Without {@code --testbed} every process listens on 127.0.0.1; with it
 * ({@link StandbyPairTestbed}, needs root) the naming service, each server, the applications' workstation and the
 * peer's are hosts of a testbed of that name, each its own network namespace, so every call crosses the
 * testbed's bridge ({@link PairPlacement}). {@code --placement STATUS} runs on a testbed that is already up (its
 * {@code status.json}), from within its ws1: how {@code --testbed} runs this class again.
 */
public final class StandbyLoadKillHarness {

    static final Duration READY = Duration.ofSeconds(90);
    static final String NAME = "StandbyPair";
    static final String PARTITION_NAME = NAME + "/p1";

    private StandbyLoadKillHarness() {
    }

    public static void main(final String[] args) throws Exception {
        int kills = 20;
        String testbed = null;
        Path placementFile = null;
        int[] replicationPorts = PairPlacement.TESTBED_REPLICATION_PORTS;
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("--") && i + 1 >= args.length) {
                usage(args[i] + " needs a value");
            } else if ("--testbed".equals(args[i])) {
                testbed = args[++i];
            } else if ("--placement".equals(args[i])) {
                placementFile = Path.of(args[++i]);
            } else if ("--replication-ports".equals(args[i]) && args[i + 1].matches("\\d{1,5},\\d{1,5}")) {
                final String[] ports = args[++i].split(",");
                replicationPorts = new int[] {Integer.parseInt(ports[0]), Integer.parseInt(ports[1])};
            } else if (args[i].matches("\\d+") && Integer.parseInt(args[i]) > 0) {
                kills = Integer.parseInt(args[i]);
            } else {
                usage("unknown argument or bad value at '" + args[i] + "'");
            }
        }
        if (testbed != null) {
            final Path directory = Files.createTempDirectory("standby-pair-testbed");
            int status = StandbyPairTestbed.TEARDOWN_FAILED;
            try {
                status = new StandbyPairTestbed(testbed, replicationPorts, directory).run(kills);
            } finally {
                // kept only while the testbed may still stand: its state is what `testbed down` needs
                if (status == StandbyPairTestbed.TEARDOWN_FAILED) {
                    System.out.println("standby pair testbed: its topology, state and logs are kept in " + directory);
                } else {
                    TemporaryDirectory.deleteTree(directory);
                }
            }
            System.exit(status);
        }
        run(kills, placementFile == null ? PairPlacement.loopback() : PairPlacement.onTestbed(placementFile, replicationPorts));
    }

    private static void usage(final String fault) {
        System.err.println("StandbyLoadKillHarness: " + fault + "; usage: StandbyLoadKillHarness [KILLS] [--testbed NAME"
            + " [--replication-ports A,B]]");
        System.exit(2);
    }

    /** Runs the kills with every process where the placement puts it; this process is on its workstation. */
    private static void run(final int kills, final PairPlacement place) throws Exception {
        System.out.println("standby load kill: " + place.description());
        try (TemporaryDirectory scratch = TemporaryDirectory.create("standby-load-kill")) {
            final Path directory = scratch.path();
            final ProcessKit kit = ProcessKit.fromThisClasspath(directory);
            final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties(place.workstation().address(), 0, 10_000));
            final AtomicBoolean running = new AtomicBoolean(true);
            final List<LoadApplication> applications = new ArrayList<>();
            AcknowledgedWriter writer = null;
            try {
                final ChildProcess namingProcess = place.naming().place(kit.launch(Component.NAMING_SERVICE).args("--host",
                    place.naming().address(), "--port", Integer.toString(place.namingPort()), "--db-dir", directory.resolve("nsdb").toString()))
                    .start();
                final String naming = namingProcess.awaitReady(READY).reference("naming");
                final String listenA = place.serverA().address() + ":" + place.replicationPortA();
                final String listenB = place.serverB().address() + ":" + place.replicationPortB();
                Member primaryMember = new Member(config(directory, "a", listenA, listenB), place.serverA());
                Member standbyMember = new Member(config(directory, "b", listenB, listenA), place.serverB());
                ChildProcess primary = server(kit, "a", primaryMember, naming);
                ReadyFile primaryReady = primary.awaitReady(READY);
                ChildProcess standby = server(kit, "b", standbyMember, naming);
                ReadyFile standbyReady = standby.awaitReady(READY);
                awaitProtected(primaryReady);

                place.peer().place(kit.launch(Component.PEER_AGENT).name("peer-ws2").args("--name", "ws2", "--host", place.peer().address(),
                    "--ior-file", directory.resolve("peer-ws2.ior").toString())).start().awaitReady(READY);
                place.workstation().place(kit.launch(Component.CLIENT_AGENT).name("agent-ws1").args("--naming", naming, "--server", NAME,
                    "--node", "ws1", "--host", place.workstation().address(), "--peer", "ws2=" + directory.resolve("peer-ws2.ior"),
                    "--poll-millis", "1000", "--jit-warmup-seconds", "0")).start().awaitReady(READY);
                final Path mirrorFile = place.workstation().place(kit.launch(Component.MIRROR).name("mirror").args("--naming", naming,
                    "--server", NAME, "--node", "ws1", "--host", place.workstation().address(), "--file",
                    directory.resolve("estimates.mirror").toString(), "--connections", "1", "--heartbeat-millis", "50", "--poll-millis", "100"))
                    .start().awaitReady(READY).file("mirror");

                final String corbaname = naming.startsWith("corbaloc:")
                    ? "corbaname:" + naming.substring("corbaloc:".length()) + "#" + PARTITION_NAME : null;
                applications.add(LoadApplication.start("by name " + PARTITION_NAME, running,
                    () -> org.latencyserver.orb.References.resolve(orb, PARTITION_NAME, naming)));
                if (corbaname != null) {
                    applications.add(LoadApplication.start("corbaname", running, () -> orb.string_to_object(corbaname)));
                } else {
                    System.out.println("NOT CHECKED: corbaname (the naming service's reference is not a corbaloc: " + naming + ")");
                }
                applications.add(LoadApplication.start("by-client ws1", running,
                    () -> org.latencyserver.orb.References.resolve(orb, NAME + "/by-client/ws1", naming)));
                writer = AcknowledgedWriter.start(orb, naming, running);

                final KillChecks checks = new KillChecks(orb);
                final List<Long> firstCallMillis = new ArrayList<>();
                final List<Long> mirrorMillis = new ArrayList<>();
                final List<Long> agentMillis = new ArrayList<>();
                final List<Long> firstWriteMillis = new ArrayList<>();
                int lost = 0;
                try (EstimateMirror mirror = EstimateMirror.open(mirrorFile)) {
                    for (int kill = 0; kill < kills; kill++) {
                        awaitProtected(primaryReady);
                        final LatencyService onPrimary = LatencyServiceHelper.narrow(orb.string_to_object(primaryReady.reference("server")));
                        final KillChecks.Acknowledged acknowledged = checks.writeBeforeKill(onPrimary, kill);
                        for (final LoadApplication application : applications) {
                            application.killed();
                        }
                        final long killedNanos = System.nanoTime();
                        writer.killed(killedNanos);
                        primary.kill();
                        for (final LoadApplication application : applications) {
                            application.killReturned();
                        }

                        final Latserv newPrimary = checks.awaitNewPrimary(naming, killedNanos, standby);
                        final long firstMillis = (System.nanoTime() - killedNanos) / 1_000_000;
                        final List<String> lostNow = new ArrayList<>(checks.compare(LatencyServiceHelper.narrow(newPrimary), acknowledged));
                        final String writerCheck = writer.checkOn(newPrimary);
                        if (writerCheck != null) {
                            lostNow.add(writerCheck);
                        }
                        lost += lostNow.size();
                        // A change made on the new primary: ws1's load flips; the mirror must show it, the agent must measure.
                        final long[] took = checks.flipAndAwait(LatencyServiceHelper.narrow(newPrimary), kill, mirror, standbyReady.url("metrics"),
                            killedNanos);
                        final long mirrorTook = took[0];
                        final long agentTook = took[1];
                        firstCallMillis.add(firstMillis);
                        mirrorMillis.add(mirrorTook);
                        agentMillis.add(agentTook);
                        firstWriteMillis.add(took[2]);
                        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                            "kill %2d: first call by name %5d ms; first write acknowledged %5d ms; mirror shows a change on the new primary %5d ms; agent's first"
                                + " measurement there %6d ms; writes %s; load average %s;", kill + 1, firstMillis, took[2], mirrorTook, agentTook,
                            lostNow.isEmpty() ? "all served" : "LOST " + lostNow, loadAverage()));
                        for (final LoadApplication application : applications) {
                            line.append(' ').append(application.describeKill());
                        }
                        line.append(" writer: ").append(writer.describeKill());
                        System.out.println(line);

                        final Member killed = primaryMember;
                        primary = standby;
                        primaryReady = standbyReady;
                        primaryMember = standbyMember;
                        standbyMember = killed;
                        standby = server(kit, "restarted-" + (kill + 1), killed, naming);
                        standbyReady = standby.awaitReady(READY);
                        if (!"standing by".equals(standbyReady.fact("standby"))) {
                            throw new IllegalStateException("the restarted server does not stand by: " + standbyReady.fact("standby"));
                        }
                    }
                }
                running.set(false);
                System.out.printf(Locale.ROOT, "%d kills under load: kill to first successful call by name p50 %d ms, max %d ms; first write"
                    + " acknowledged by the new primary p50 %d ms, max %d ms; mirror shows a change on the new primary p50 %d ms,"
                    + " max %d ms; agent's first measurement on the new primary p50 %d ms,"
                    + " max %d ms; acknowledged writes lost %d (checked: 3 per kill + the writer's last); load average at the end %s (%s)%n",
                    kills, median(firstCallMillis), max(firstCallMillis), median(firstWriteMillis), max(firstWriteMillis),
                    median(mirrorMillis), max(mirrorMillis), median(agentMillis),
                    max(agentMillis), lost, loadAverage(), place.description());
                for (final LoadApplication application : applications) {
                    System.out.println(application.summary(kills));
                }
                System.out.println(writer.summary(kills));
            } finally {
                running.set(false);
                kit.close();
                orb.shutdown(false);
            }
        }
    }

    static long median(final List<Long> values) {
        final List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    static long max(final List<Long> values) {
        return Collections.max(values);
    }

    /** A server of the pair: its configuration and its host, the same at every restart. */
    private record Member(Path config, PairPlacement.Host host) {
    }

    private static ChildProcess server(final ProcessKit kit, final String name, final Member member, final String naming)
        throws java.io.IOException {
        return member.host().place(kit.launch(Component.SERVER).name(name).args("--config", member.config().toString(), "--host",
            member.host().address(), "--metrics-port", "0", "--naming", naming, "--ior-file",
            kit.workDirectory().resolve(name + ".ior").toString())).start();
    }

    /** @return the machine's 1, 5 and 15 minute load averages, from {@code /proc/loadavg} ("?" where unreadable) */
    static String loadAverage() {
        try {
            final String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (java.io.IOException | ArrayIndexOutOfBoundsException e) {
            return "?";
        }
    }

    private static void awaitProtected(final ReadyFile primary) throws Exception {
        final long deadline = System.nanoTime() + READY.toNanos();
        while (MetricsText.scrape(primary.url("metrics")).get("latency_server_standby_protected") != 1) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the pair was not protected within " + READY);
            }
            Thread.sleep(20);
        }
    }

    /**
     * Connections: 1 (ws1, QoS 1) the harness's PutMibUpdates; 2 (ws5, QoS 1) the writer's; 4 and 6 (ws1, QoS 3 and 4)
     * the agent's; 5 (ws3) and 7 (ws4), QoS 3, answered by the harness (UpdateResponse, submit_measurement).
     */
    private static Path config(final Path directory, final String name, final String listen, final String peer) {
        ServerYaml yaml = ServerYaml.named(NAME).server("partition", "p1").stateFile(Path.of(name + ".state.json"))
            .server("standby", Map.of("listen", listen, "peer", peer))
            .thresholds("cpu_hysteresis_band_percent", 0)
            .measurement("round_trips", 200).measurement("warmup_round_trips", 50).measurement("min_interval_millis", 0)
            .measurement("timeout_millis", 30_000)
            .profile(Path.of("profiles/thesis-tac4-corba.json").toAbsolutePath().normalize())
            .link(Link.named("atm-port").with("mib_source", "push"));
        for (final String node : new String[] {"ws1", "ws2", "ws3", "ws4", "ws5"}) {
            yaml = yaml.node(Node.of(node, Integer.parseInt(node.substring(2)), "TAC-4").with("mib_source", "push"));
        }
        return yaml
            .connection(Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0))
            .connection(Connection.of(2, "ws5", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0))
            .connection(Connection.of(4, "ws1", "ws2", 3).link("atm-port").calibration("thesis"))
            .connection(Connection.of(6, "ws1", "ws2", 4).link("atm-port").boundPercent(96).calibration("thesis"))
            .connection(Connection.of(5, "ws3", "ws2", 3).link("atm-port").calibration("thesis").probeRatePerSecond(0))
            .connection(Connection.of(7, "ws4", "ws2", 3).link("atm-port").calibration("thesis").probeRatePerSecond(0))
            .writeTo(directory.resolve(name + ".yaml"));
    }

    /** A PutMibUpdates of one connection: client CPU as given, peer 50 %, port 10 %. */
    static void push(final Latserv server, final short indexRef, final int clientCpuPercent) {
        server.PutMibUpdates(new IdlMibUpdates(indexRef, (short) clientCpuPercent, (short) 50, (short) 10), indexRef);
    }

    /** @return how a failed call ended, for the counts: the system exception's name, or the lookup's failure */
    static String failureName(final Exception e) {
        if (e instanceof org.omg.CORBA.SystemException) {
            return e.getClass().getSimpleName();
        }
        return "lookup failed";
    }
}
