package org.latencyserver.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scripts a testbed snmpd runs, spoken to as net-snmp's pass_persist speaks to them. */
class PassPersistScriptsTest {

    @TempDir
    Path directory;

    private List<String> converse(final String script, final String argument, final String input) throws Exception {
        final Path file = directory.resolve("script.sh");
        Files.writeString(file, script);
        final Process process = new ProcessBuilder("/bin/sh", file.toString(), argument).redirectErrorStream(true).start();
        process.getOutputStream().write(input.getBytes(StandardCharsets.US_ASCII));
        process.getOutputStream().close();
        assertTrue(process.waitFor(10, TimeUnit.SECONDS), "the script ends with its input");
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).lines().toList();
    }

    @Test
    void theCpuScriptAnswersEachRawCounterOfItsCoreFromProcStatAndNothingElse() throws Exception {
        final List<String> out = converse(SnmpdConfig.CPU_SCRIPT, "0",
            "PING\nget\n.1.3.6.1.4.1.2021.11.53.0\nget\n.1.3.6.1.4.1.2021.11.56.0\nget\n.1.3.6.1.4.1.2021.11.9.0\n");
        assertEquals("PONG", out.get(0));
        assertEquals(List.of(".1.3.6.1.4.1.2021.11.53.0", "counter"), out.subList(1, 3));
        final String[] cpu0 = Files.readAllLines(Path.of("/proc/stat")).stream().filter(l -> l.startsWith("cpu0 ")).findFirst()
            .orElseThrow().split("\\s+");
        final long idle = Long.parseLong(out.get(3));
        assertTrue(idle > 0 && idle <= Long.parseLong(cpu0[4]), "core 0's idle ticks, read just before: " + idle);
        assertEquals(List.of(".1.3.6.1.4.1.2021.11.56.0", "counter"), out.subList(4, 6));
        assertTrue(out.get(6).matches("\\d+"), out.toString());
        assertEquals("NONE", out.get(7), "an OID it does not serve");
    }

    @Test
    void theDropsScriptAnswersZeroForAnInterfaceWithoutDrops() throws Exception {
        final List<String> out = converse(SnmpdConfig.DROPS_SCRIPT, "no-such-interface",
            "PING\nget\n.1.3.6.1.2.1.2.2.1.19.5\ngetnext\n.1.3.6.1.2.1.2.2.1.19.5\n");
        assertEquals(List.of("PONG", ".1.3.6.1.2.1.2.2.1.19.5", "counter", "0", "NONE"), out);
    }
}
