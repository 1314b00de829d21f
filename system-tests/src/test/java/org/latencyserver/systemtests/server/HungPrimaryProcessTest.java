package org.latencyserver.systemtests.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.PairStatus;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.orb.References;
import org.latencyserver.systemtests.kit.ReadyProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.testkit.MetricsText;
import org.omg.CORBA.ORB;

/**
 * A pair of server processes and a naming service, the primary <em>hung</em> ({@code kill -STOP}),
 * not killed: the standby takes over (FD_ALL3 suspects the silent primary; its reference does not
 * answer the standby's check, so it binds the name and serves after the fence); then the hung one
 * is resumed ({@code kill -CONT}). Its lease lapsed while it was stopped, so it steps down and joins
 * again as standby: every write sent to it after it resumed — and the one queued in its socket
 * while it was stopped — is answered {@code TRANSIENT}, none acknowledged, until it stands by. Asserts
 * no acknowledged write lost, both roles at the end ({@code pair_status()} of the primary, the
 * standby's metrics and ready file: a standby discards calls). Prints the takeover time and the load
 * average — figures, not assertions (two shared cores).
 */
@Order(7) // a long class, started early (junit-platform.properties)
class HungPrimaryProcessTest {

    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);

    @TempDir
    Path directory;

    @Test
    void aHungPrimaryIsReplacedAndOnceResumedAcknowledgesNoWriteAndStandsByAgain() throws Exception {
        try (SystemUnderTest system = SystemUnderTest.in(directory)) {
            final String naming = system.start(system.launch(Component.NAMING_SERVICE).args("--port",
                Integer.toString(SystemUnderTest.freeTcpPort()), "--db-dir", directory.resolve("nsdb").toString()))
                .ready().reference("naming");
            final StandbyPairProcesses.Pair pair = StandbyPairProcesses.startProtected(system, directory, naming);
            final ReadyProcess a = pair.primary();
            final ReadyProcess b = pair.standby();
            final ORB orb = system.orb();
            // A client that gives up on a call after 2 s, as an application with a deadline does: a hung server never answers.
            final Properties timed = PlainOrbs.properties();
            timed.setProperty("jacorb.connection.client.pending_reply_timeout", "2000");
            timed.setProperty("jacorb.retries", "0");
            final ORB impatient = ORB.init(new String[0], timed);
            try {
                final Latserv oldPrimary = LatservHelper.narrow(orb.string_to_object(a.ready().reference("server")));
                oldPrimary.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 50, (short) 10), (short) 1);

                signal("STOP", a);
                final long hung = System.nanoTime();
                boolean resumed = false;
                try {
                    // A write sent to the hung primary waits in its socket; it is taken once the process resumes.
                    final CompletableFuture<String> queued = CompletableFuture.supplyAsync(() -> outcome(() ->
                        oldPrimary.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 77, (short) 50, (short) 10), (short) 1)));
                    int failedReads = 0;
                    TableRow row = null;
                    while (row == null) {
                        assertFalse(System.nanoTime() - hung > DEADLINE_NANOS, "a takeover within 60 s\n" + b.child().log());
                        try {
                            row = LatservHelper.narrow(References.resolve(impatient, "StandbyPair", naming)).RequestTableStatus((short) 1);
                        } catch (org.omg.CORBA.SystemException | References.ReferenceException e) {
                            failedReads++;
                            Thread.sleep(20);
                        }
                    }
                    final long firstReadMillis = (System.nanoTime() - hung) / 1_000_000;
                    assertEquals(10, row.latest_client_mib_cpu, "the new primary serves the write the hung one acknowledged");
                    long firstWriteMillis = -1;
                    while (firstWriteMillis < 0) {
                        assertFalse(System.nanoTime() - hung > DEADLINE_NANOS, "a write acknowledged within 60 s\n" + b.child().log());
                        try {
                            LatservHelper.narrow(References.resolve(impatient, "StandbyPair", naming))
                                .PutMibUpdates(new IdlMibUpdates((short) 1, (short) 20, (short) 50, (short) 10), (short) 1);
                            firstWriteMillis = (System.nanoTime() - hung) / 1_000_000;
                        } catch (org.omg.CORBA.SystemException | References.ReferenceException e) {
                            Thread.sleep(20);
                        }
                    }
                    assertTrue(a.child().isAlive(), "the old primary is hung, not dead");
                    final String load = Files.readString(Path.of("/proc/loadavg")).trim();
                    System.out.printf("hung primary: kill -STOP to the first successful call by name %d ms (%d failed), to the"
                        + " first acknowledged write by name %d ms; load average %s%n", firstReadMillis, failedReads,
                        firstWriteMillis, load);

                    signal("CONT", a);
                    resumed = true;
                    final AtomicInteger acknowledged = new AtomicInteger();
                    int refused = 0;
                    final String queuedOutcome = queued.get(60, TimeUnit.SECONDS);
                    if ("acknowledged".equals(queuedOutcome)) {
                        acknowledged.incrementAndGet();
                    }
                    assertEquals("TRANSIENT", queuedOutcome, "the write queued while it hung is not acknowledged");
                    final long resumedAt = System.nanoTime();
                    while (!role(a, "standing_by")) {
                        assertFalse(System.nanoTime() - resumedAt > DEADLINE_NANOS, "standing by again within 60 s\n"
                            + a.child().log());
                        final String outcome = outcome(() -> oldPrimary.PutMibUpdates(
                            new IdlMibUpdates((short) 1, (short) 66, (short) 50, (short) 10), (short) 1));
                        if ("acknowledged".equals(outcome)) {
                            acknowledged.incrementAndGet();
                        } else {
                            assertEquals("TRANSIENT", outcome, "a write to the resumed old primary");
                            refused++;
                        }
                        Thread.sleep(20);
                    }
                    System.out.printf("hung primary: resumed, stood by again after %d ms; %d writes sent to it meanwhile,"
                        + " all TRANSIENT%n", (System.nanoTime() - resumedAt) / 1_000_000, refused);
                    assertEquals(0, acknowledged.get(), "writes the resumed old primary acknowledged as a second primary");
                } finally {
                    if (!resumed) {
                        signal("CONT", a); // never leave a stopped process behind
                    }
                }

                try {
                    StandbyPairProcesses.awaitProtected(b);
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "\nthe new primary's pair metrics:\n" + pairMetrics(b)
                        + "\nthe old primary's pair metrics:\n" + pairMetrics(a) + "\nthe old primary's log:\n" + a.child().log(), e);
                }
                final TableRow served = LatservHelper.narrow(References.resolve(orb, "StandbyPair", naming))
                    .RequestTableStatus((short) 1);
                assertEquals(20, served.latest_client_mib_cpu, "0 acknowledged writes lost; none of the refused ones applied");
                final PairStatus primary = LatencyServiceHelper.narrow(orb.string_to_object(b.ready().reference("server")))
                    .pair_status();
                assertEquals("primary", primary.role);
                assertTrue(primary.writes_protected, "the old primary stands by for the new one");
                assertEquals(2, primary.members);
                assertThrows(org.omg.CORBA.TRANSIENT.class, () -> LatencyServiceHelper.narrow(
                    orb.string_to_object(a.ready().reference("server"))).pair_status(), "a standby discards calls");
                assertEquals("standing by", ReadyFile.read(a.child().readyFile()).fact("standby"));
                assertTrue(role(a, "standing_by"));
                assertEquals(1.0, MetricsText.scrape(a.ready().url("metrics")).value("latency_server_standby_lease_lapses_total")
                    .orElse(0.0), "its lease lapsed once");
            } finally {
                impatient.shutdown(true);
            }
        }
    }

    /** @return "acknowledged", or the system exception's simple name */
    private static String outcome(final Runnable write) {
        try {
            write.run();
            return "acknowledged";
        } catch (org.omg.CORBA.SystemException e) {
            return e.getClass().getSimpleName();
        }
    }

    private static String pairMetrics(final ReadyProcess server) throws Exception {
        final java.net.http.HttpResponse<String> page = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
            .newBuilder(java.net.URI.create(server.ready().url("metrics"))).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        return page.body().lines().filter(line -> line.startsWith("latency_server_standby")).collect(
            java.util.stream.Collectors.joining("\n"));
    }

    private static boolean role(final ReadyProcess server, final String role) throws Exception {
        return MetricsText.scrape(server.ready().url("metrics")).value("latency_server_standby_role", "role", role).orElse(0.0) == 1;
    }

    private static void signal(final String signal, final ReadyProcess process) throws Exception {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.child().pid())).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + signal);
    }
}
