package org.latencyserver.systemtests.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.latencyserver.testbed.Prerequisites;

/**
 * Thesis clients of another ORB, built here: omniORB's IDL compiler on the thesis's {@code Latserv.idl} as it is, then
 * the example client {@code examples/clients/cpp/request_status.cc} (RequestStatus) unchanged and this module's
 * {@code src/test/cpp/table_status.cc} (RequestTableStatus: the row's port_state), run in a testbed host's namespace.
 *
 * <p>Immutable once built; each run is a process of its own.
 */
final class ThesisCppClients {

    private static final Path IDL = Path.of("../idl/src/main/idl/Latserv.idl");
    private static final Path REQUEST_STATUS = Path.of("../examples/clients/cpp/request_status.cc");
    private static final Path TABLE_STATUS = Path.of("src/test/cpp/table_status.cc");
    private static final Path OMNIORB_HEADER = Path.of("/usr/include/omniORB4/CORBA.h");

    private final Path build;

    private ThesisCppClients(final Path build) {
        this.build = build;
    }

    /**
     * @return what this machine lacks to build the clients (Debian: omniidl, libomniorb4-dev, g++); empty when nothing
     */
    static List<String> missing() {
        final List<String> missing = new ArrayList<>();
        for (final String program : List.of("omniidl", "g++")) {
            if (Prerequisites.find(program).isEmpty()) {
                missing.add("the program " + program);
            }
        }
        if (!Files.exists(OMNIORB_HEADER)) {
            missing.add(OMNIORB_HEADER + " (Debian libomniorb4-dev)");
        }
        return missing;
    }

    /**
     * Compiles the IDL's stubs once and links both clients against them.
     *
     * @param build an empty directory for the generated and compiled files
     * @return the clients
     * @throws AssertionError naming the step and its output when one fails
     */
    static ThesisCppClients build(final Path build) throws Exception {
        Files.createDirectories(build);
        Files.copy(REQUEST_STATUS, build.resolve("request_status.cc"));
        Files.copy(TABLE_STATUS, build.resolve("table_status.cc"));
        run(build, "omniidl", "-bcxx", IDL.toAbsolutePath().toString());
        run(build, "g++", "-c", "-o", "LatservSK.o", "LatservSK.cc");
        run(build, "g++", "-o", "request_status", "request_status.cc", "LatservSK.o", "-lomniORB4", "-lomnithread");
        run(build, "g++", "-o", "table_status", "table_status.cc", "LatservSK.o", "-lomniORB4", "-lomnithread");
        return new ThesisCppClients(build);
    }

    /**
     * RequestStatus by the unchanged example client.
     *
     * @return its line: {@code index_ref=N quality=Q latency_estimate=... update_required_flag=F}
     * @throws AssertionError when it exits other than 0 (not reached, or the connection not served)
     */
    String requestStatus(final String namespace, final String ior, final int indexRef) throws Exception {
        return OneSwitchTestbed.exec(List.of("ip", "netns", "exec", namespace, build.resolve("request_status").toString(), ior,
            Integer.toString(indexRef)));
    }

    /**
     * RequestTableStatus: the connection's row.
     *
     * @return its port_state as the thesis's encoding gives it (0, 91–100, 101, −1)
     * @throws AssertionError when it exits other than 0 or prints no port_state
     */
    int tablePortState(final String namespace, final String ior, final int indexRef) throws Exception {
        final String output = OneSwitchTestbed.exec(List.of("ip", "netns", "exec", namespace, build.resolve("table_status").toString(),
            ior, Integer.toString(indexRef)));
        final Matcher m = Pattern.compile(" port_state=(-?\\d+) ").matcher(output);
        assertTrue(m.find(), "no port_state from table_status: " + output);
        return Integer.parseInt(m.group(1));
    }

    private static void run(final Path directory, final String... command) throws Exception {
        final Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(180, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        assertEquals(0, process.exitValue(), () -> String.join(" ", command) + ":\n" + output);
    }
}
