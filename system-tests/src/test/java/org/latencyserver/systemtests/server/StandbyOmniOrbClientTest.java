package org.latencyserver.systemtests.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.launch.Component;
import org.latencyserver.orb.References;
import org.latencyserver.systemtests.kit.ReadyProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.omg.CORBA.ORB;

/**
 * The thesis's omniORB client ({@code examples/clients/cpp/request_status.cc}, compiled here from
 * the thesis's {@code Latserv.idl}) against a hot-standby pair of server processes: given a
 * {@code corbaname:} URL, it reaches the primary; right after a {@code kill -9} of the primary its
 * call fails (the name still names the dead server), it resolves the URL again after its pause and
 * its one retry reaches the new primary, which answers what a Java client by name gets. Given the
 * dead primary's IOR instead, its retry reaches the same dead process and it exits 1.
 */
@Order(10) // a long class, started early (junit-platform.properties)
class StandbyOmniOrbClientTest {


    @TempDir
    Path directory;

    @Test
    void theOmniOrbClientByCorbanameRetriesOnceAfterATakeoverAndReachesTheNewPrimary() throws Exception {
        final List<String> missing = missing();
        if (!missing.isEmpty()) {
            System.out.println("NOT CHECKED: the omniORB client after a takeover; this machine lacks " + String.join(", ", missing));
            return;
        }
        final Path build = Files.createDirectories(directory.resolve("cpp"));
        Files.copy(Path.of("../examples/clients/cpp/request_status.cc"), build.resolve("request_status.cc"));
        run(build, "omniidl", "-bcxx", Path.of("../idl/src/main/idl/Latserv.idl").toAbsolutePath().toString());
        run(build, "g++", "-o", "request_status", "request_status.cc", "LatservSK.cc", "-lomniORB4", "-lomnithread");
        final String client = build.resolve("request_status").toString();

        try (SystemUnderTest system = SystemUnderTest.in(directory)) {
            final String naming = system.start(system.launch(Component.NAMING_SERVICE).args("--port",
                Integer.toString(SystemUnderTest.freeTcpPort()), "--db-dir", directory.resolve("nsdb").toString()))
                .ready().reference("naming");
            assertTrue(naming.startsWith("corbaloc::") && naming.endsWith("/NameService"), naming);
            final String corbaname = "corbaname:" + naming.substring("corbaloc:".length(), naming.length() - "/NameService".length())
                + "#StandbyPair";
            final StandbyPairProcesses.Pair pair = StandbyPairProcesses.startProtected(system, directory, naming);
            final ReadyProcess primary = pair.primary();
            final ReadyProcess standby = pair.standby();
            final ORB orb = system.orb();
            LatservHelper.narrow(orb.string_to_object(primary.ready().reference("server")))
                .PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 80, (short) 50), (short) 1);

            final Result before = runClient(client, corbaname, "1", "100");
            assertEquals(0, before.exit, before.output);
            assertFalse(before.output.contains("retrying once"), "the primary answers at once: " + before.output);
            final String deadIor = primary.ready().reference("server");

            primary.child().kill();
            // Started at once: the name still names the killed server until the standby has taken over (about a second).
            final Result after = runClient(client, corbaname, "1", "10000");
            assertEquals(0, after.exit, after.output + "\n" + standby.child().logEnd());
            assertTrue(after.output.contains("resolving " + corbaname + " again in 10000 ms and retrying once"), after.output);
            assertTrue(after.output.contains("TRANSIENT") || after.output.contains("COMM_FAILURE"), after.output);
            final IdlStatusToClient expected = LatservHelper.narrow(References.resolve(orb, "StandbyPair", naming)).RequestStatus((short) 1);
            assertEquals(1, expected.server_acknowledges_client);
            assertTrue(after.output.contains("index_ref=1 quality=1 "), after.output);
            assertEquals(expected.latency_estimate, number(after.output, "latency_estimate"), 1e-4, after.output);
            assertEquals(expected.upper_bound_estimate, number(after.output, "upper_bound_estimate"), 1e-4, after.output);

            final Result byIor = runClient(client, deadIor, "1", "100");
            assertEquals(1, byIor.exit, "an IOR names one process; its retry reaches the dead one again: " + byIor.output);
            assertTrue(byIor.output.contains("retrying once"), byIor.output);
        }
    }

    /** What a run of the client printed (stdout and stderr together) and its exit status. */
    private record Result(int exit, String output) {
    }

    private static Result runClient(final String client, final String reference, final String indexRef, final String retryMillis)
        throws Exception {
        final Process process = new ProcessBuilder(client, reference, indexRef, retryMillis).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "request_status did not finish: " + output);
        return new Result(process.exitValue(), output);
    }

    private static List<String> missing() {
        final List<String> missing = new ArrayList<>();
        for (final String program : List.of("omniidl", "g++")) {
            if (!onPath(program)) {
                missing.add("the program " + program);
            }
        }
        if (!Files.exists(Path.of("/usr/include/omniORB4/CORBA.h"))) {
            missing.add("/usr/include/omniORB4/CORBA.h (Debian libomniorb4-dev)");
        }
        return missing;
    }

    private static boolean onPath(final String program) {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    private static float number(final String output, final String name) {
        final java.util.regex.Matcher matcher = java.util.regex.Pattern.compile(name + "=([-0-9.e]+)").matcher(output);
        assertTrue(matcher.find(), name + " in " + output);
        return Float.parseFloat(matcher.group(1));
    }

    private static void run(final Path directory, final String... command) throws Exception {
        final Process process = new ProcessBuilder(List.of(command)).directory(directory.toFile()).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(180, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        assertEquals(0, process.exitValue(), String.join(" ", command) + ":\n" + output);
    }
}
