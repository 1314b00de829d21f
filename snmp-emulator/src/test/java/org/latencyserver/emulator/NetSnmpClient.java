package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs net-snmp's command-line clients ({@code snmpget}, {@code snmpwalk}; Debian package "snmp")
 * away from the user's configuration, and reads their {@code -On} output.
 */
final class NetSnmpClient {
    static final String SNMPGET = "/usr/bin/snmpget";
    static final String SNMPWALK = "/usr/bin/snmpwalk";

    /** A finished command: its exit code and its output (stdout and stderr together). */
    record Result(int exitCode, String output) {
    }

    private final Path home;

    /** @param home a directory for net-snmp's configuration and persistent state */
    NetSnmpClient(Path home) {
        this.home = home;
    }

    Result run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        // Keep net-snmp away from the user's configuration and persistent state.
        pb.environment().put("SNMPCONFPATH", home.toString());
        pb.environment().put("SNMP_PERSISTENT_DIR", home.toString());
        pb.environment().put("MIBS", "");
        Process p = pb.start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** Parses "-On" output lines ".1.3.6… = Type: value" into OID → "Type: value"; the command must have succeeded. */
    static Map<String, String> values(Result r) {
        assertEquals(0, r.exitCode(), r.output());
        Map<String, String> map = new LinkedHashMap<>();
        for (String line : r.output().split("\n")) {
            int eq = line.indexOf(" = ");
            if (eq > 0) {
                map.put(line.substring(0, eq).trim(), line.substring(eq + 3).trim());
            }
        }
        return map;
    }
}
