package org.latencyserver.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.latencyserver.testkit.FreePorts;
import org.latencyserver.testkit.MetricsText;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.latencyserver.testkit.config.ServerYaml.Link;
import org.latencyserver.testkit.config.ServerYaml.Node;
import org.omg.CORBA.ORB;

/**
 * {@code kill -9} of the primary of a pair of server processes, again and again: a naming service
 * and two servers ({@code server.standby}) started through the process kit with this JVM's class
 * path; before each kill one write the primary acknowledged (a different value each time); an
 * application thread calls {@code RequestStatus} by name all along, every 5 ms (resolving the name
 * again after a failed call, as an application does, and calling again 5 ms later). For each kill: the time from the kill to the first
 * successful call by name, whether the acknowledged write is in the new primary's table, and the
 * killed server started again, which stands by and is sent the table.
 *
 * <p>Run from the repository root: {@code java -cp CP org.latencyserver.benchmarks.StandbyKillHarness [KILLS]}
 * (default 20); prints each kill and then p50 and max, calls that failed meanwhile and writes lost.
 */
public final class StandbyKillHarness {

    private static final Duration READY = Duration.ofSeconds(60);

    private StandbyKillHarness() {
    }

    public static void main(final String[] args) throws Exception {
        final int kills = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        try (TemporaryDirectory scratch = TemporaryDirectory.create("standby-kill")) {
            final Path directory = scratch.path();
            final ProcessKit kit = ProcessKit.fromThisClasspath(directory);
            final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
            final AtomicBoolean running = new AtomicBoolean(true);
            try {
                final ChildProcess namingProcess = kit.launch(Component.NAMING_SERVICE).args("--port",
                    Integer.toString(FreePorts.belowEphemeralRange()), "--db-dir", directory.resolve("nsdb").toString()).start();
                final String naming = namingProcess.awaitReady(READY).reference("naming");
                final int portA = FreePorts.belowEphemeralRange();
                int other = FreePorts.belowEphemeralRange();
                while (Math.abs(other - portA) == 100 || other == portA) {
                    other = FreePorts.belowEphemeralRange();
                }
                Path primaryConfig = config(directory, "a", portA, other);
                Path standbyConfig = config(directory, "b", other, portA);
                ChildProcess primary = server(kit, "a", primaryConfig, naming);
                ReadyFile primaryReady = primary.awaitReady(READY);
                ChildProcess standby = server(kit, "b", standbyConfig, naming);
                ReadyFile standbyReady = standby.awaitReady(READY);

                final AtomicLong applicationCalls = new AtomicLong();
                final AtomicLong applicationFailures = new AtomicLong();
                final Thread application = new Thread(() -> callByName(orb, naming, running, applicationCalls, applicationFailures),
                    "application");
                application.setDaemon(true);
                application.start();

                final List<Long> millis = new ArrayList<>();
                int lost = 0;
                for (int kill = 0; kill < kills; kill++) {
                    awaitProtected(primaryReady);
                    final short cpu = (short) (1 + kill % 99);
                    LatservHelper.narrow(orb.string_to_object(primaryReady.reference("server")))
                        .PutMibUpdates(new IdlMibUpdates((short) 1, cpu, (short) 50, (short) 10), (short) 1);
                    primary.kill();
                    final long killed = System.nanoTime();
                    TableRow row = null;
                    while (row == null) {
                        if (System.nanoTime() - killed > READY.toNanos()) {
                            throw new IllegalStateException("no takeover within 60 s:\n" + standby.logEnd());
                        }
                        try {
                            row = LatservHelper.narrow(References.resolve(orb, "StandbyPair", naming)).RequestTableStatus((short) 1);
                        } catch (org.omg.CORBA.SystemException | References.ReferenceException e) {
                            Thread.sleep(10);
                        }
                    }
                    final long took = (System.nanoTime() - killed) / 1_000_000;
                    millis.add(took);
                    final boolean kept = row.latest_client_mib_cpu == cpu;
                    if (!kept) {
                        lost++;
                    }
                    System.out.printf(Locale.ROOT, "kill %2d: first call by name after %5d ms; acknowledged write %s%n", kill + 1, took,
                        kept ? "served" : "LOST (served " + row.latest_client_mib_cpu + ", acknowledged " + cpu + ")");
                    final Path killedConfig = primaryConfig;
                    primary = standby;
                    primaryReady = standbyReady;
                    primaryConfig = standbyConfig;
                    standbyConfig = killedConfig;
                    standby = server(kit, "restarted-" + (kill + 1), killedConfig, naming);
                    standbyReady = standby.awaitReady(READY);
                    if (!"standing by".equals(standbyReady.fact("standby"))) {
                        throw new IllegalStateException("the restarted server does not stand by: " + standbyReady.fact("standby"));
                    }
                }
                running.set(false);
                Collections.sort(millis);
                System.out.printf(Locale.ROOT, "%d kills: kill to first successful call by name p50 %d ms, max %d ms; acknowledged"
                    + " writes lost %d; the application's RequestStatus by name: %d calls, %d failed%n", kills,
                    millis.get(kills / 2), millis.get(kills - 1), lost, applicationCalls.get(), applicationFailures.get());
            } finally {
                running.set(false);
                kit.close();
                orb.shutdown(false);
            }
        }
    }

    /** An application: RequestStatus through the name, resolving it again after a failed call. */
    private static void callByName(final ORB orb, final String naming, final AtomicBoolean running, final AtomicLong calls,
                                   final AtomicLong failures) {
        Latserv server = null;
        while (running.get()) {
            try {
                if (server == null) {
                    server = LatservHelper.narrow(References.resolve(orb, "StandbyPair", naming));
                }
                server.RequestStatus((short) 1);
                calls.incrementAndGet();
                Thread.sleep(5);
            } catch (org.omg.CORBA.SystemException | References.ReferenceException e) {
                failures.incrementAndGet();
                server = null;
                pause();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** An application's retry pause after a failed call: 5 ms. */
    private static void pause() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ChildProcess server(final ProcessKit kit, final String name, final Path config, final String naming)
        throws java.io.IOException {
        return kit.launch(Component.SERVER).name(name).args("--config", config.toString(), "--metrics-port", "0", "--naming", naming,
            "--ior-file", kit.workDirectory().resolve(name + ".ior").toString()).start();
    }

    private static void awaitProtected(final ReadyFile primary) throws Exception {
        final long deadline = System.nanoTime() + READY.toNanos();
        while (MetricsText.scrape(primary.url("metrics")).get("latency_server_standby_protected") != 1) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the pair was not protected within 60 s");
            }
            Thread.sleep(20);
        }
    }

    private static Path config(final Path directory, final String name, final int listen, final int peer) {
        return ServerYaml.named("StandbyPair").stateFile(Path.of(name + ".state.json"))
            .server("standby", Map.of("listen", "127.0.0.1:" + listen, "peer", "127.0.0.1:" + peer))
            .profile(Path.of("profiles/thesis-tac4-corba.json").toAbsolutePath().normalize())
            .node(Node.of("ws1", 1, "TAC-4").with("mib_source", "push"))
            .node(Node.of("ws2", 2, "TAC-4").with("mib_source", "push"))
            .link(Link.named("atm-port").with("mib_source", "push"))
            .connection(Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0))
            .writeTo(directory.resolve(name + ".yaml"));
    }
}
