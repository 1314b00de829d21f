package org.latencyserver.systemtests.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.systemtests.kit.ServerUnderTest;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.systemtests.kit.TestCertificates;
import org.latencyserver.systemtests.kit.Testbed;
import org.omg.CORBA.ORB;

/**
 * Interoperability with clients of any ORB in any language: the C++ example client
 * ({@code examples/clients/cpp}), compiled here with omniORB's IDL compiler from the thesis's
 * {@code Latserv.idl}, calls {@code RequestStatus} on the JacORB server over a loopback socket and
 * gets exactly what a Java client gets — on a server that takes writes only over IIOP/TLS, as
 * thesis clients read over plain IIOP unchanged ({@code security.plain_iiop: read-only}).
 */
class OtherOrbClientTest {

    @TempDir
    Path directory;

    @Test
    void anOmniOrbCppClientCompiledFromTheThesisIdlReadsOverPlainIiopTheEstimateAnOperatorMadeOverTls() throws Exception {
        final Path build = Files.createDirectories(directory.resolve("cpp"));
        Files.copy(Path.of("../examples/clients/cpp/request_status.cc"), build.resolve("request_status.cc"));
        run(build, "omniidl", "-bcxx", Path.of("../idl/src/main/idl/Latserv.idl").toAbsolutePath().toString());
        run(build, "g++", "-o", "request_status", "request_status.cc", "LatservSK.cc", "-lomniORB4", "-lomnithread");

        final TestCertificates certificates = TestCertificates.get();
        final Path config = Testbed.write(directory, "testbed.yaml", Testbed.text() + certificates.securitySection());
        final ORB orb = certificates.orbFor("operator-ops");
        try (SystemUnderTest system = SystemUnderTest.in(directory);
             ServerUnderTest server = system.server(config,
                 java.util.Map.of(TestCertificates.PASSWORD_VARIABLE, certificates.password()))) {
            final Latserv java = LatservHelper.narrow(orb.string_to_object(server.ior()));
            java.PutMibUpdates(new IdlMibUpdates((short) 2, (short) 50, (short) 90, (short) 96), (short) 2);
            final IdlStatusToClient expected = java.RequestStatus((short) 2);
            assertEquals(1, expected.server_acknowledges_client);

            final String output = run(build, build.resolve("request_status").toString(), server.ior(), "2");
            assertTrue(output.contains("index_ref=2 quality=1 "), output);
            assertEquals(expected.latency_estimate, number(output, "latency_estimate"), 1e-4, output);
            assertEquals(expected.lower_bound_estimate, number(output, "lower_bound_estimate"), 1e-4, output);
            assertEquals(expected.upper_bound_estimate, number(output, "upper_bound_estimate"), 1e-4, output);
            assertTrue(output.contains("update_required_flag=0"), output);
        } finally {
            orb.shutdown(false);
        }
    }

    private static float number(final String output, final String name) {
        final java.util.regex.Matcher matcher = java.util.regex.Pattern.compile(name + "=([-0-9.e]+)").matcher(output);
        assertTrue(matcher.find(), name + " in " + output);
        return Float.parseFloat(matcher.group(1));
    }

    /** Runs a command in a directory; fails with its output when it is missing or fails. */
    private static String run(final Path directory, final String... command) throws Exception {
        final Process process;
        try {
            process = new ProcessBuilder(List.of(command)).directory(directory.toFile()).redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            throw new AssertionError(command[0] + " is needed for this test (Debian: apt-get install omniidl libomniorb4-dev g++; "
                + ".ci/run installs them): " + e.getMessage());
        }
        final String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        assertEquals(0, process.exitValue(), String.join(" ", command) + ":\n" + output);
        return output;
    }
}
