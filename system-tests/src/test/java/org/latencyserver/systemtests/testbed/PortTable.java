package org.latencyserver.systemtests.testbed;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The deployment guide's port table, and what a process really listens on.
 *
 * <p>The table's rows are {@code | `COMPONENT` | runs on | TCP PORT[, with `KEY`] | set by | reached by |}; a row
 * with a condition ({@code with `security.tls`}) is read only when asked for.
 */
final class PortTable {

    private static final Pattern ROW = Pattern.compile("^\\| `([a-z-]+)` \\| [^|]+ \\| TCP (\\d+)(?:, with `([^`]+)`)? \\|");
    private static final Pattern LISTEN = Pattern.compile(":(\\d+)\\s.*pid=(\\d+),");

    private PortTable() {
    }

    /**
     * @param guide      the deployment guide
     * @param conditions the conditions that hold (e.g. {@code security.tls}); a row with another is left out
     * @return each component's TCP ports in the guide's table
     */
    static Map<String, Set<Integer>> read(final Path guide, final Set<String> conditions) throws IOException {
        final Map<String, Set<Integer>> ports = new TreeMap<>();
        for (final String line : Files.readAllLines(guide)) {
            final Matcher m = ROW.matcher(line);
            if (m.find() && (m.group(3) == null || conditions.contains(m.group(3)))) {
                ports.computeIfAbsent(m.group(1), c -> new TreeSet<>()).add(Integer.parseInt(m.group(2)));
            }
        }
        assertFalse(ports.isEmpty(), "no port table rows in " + guide);
        return ports;
    }

    /**
     * @param namespace the process's network namespace
     * @param pid       the process
     * @return the TCP ports it listens on ({@code ss -Hltnp} in the namespace)
     */
    static Set<Integer> listeningPorts(final String namespace, final long pid) throws Exception {
        final String listing = OneSwitchTestbed.exec(List.of("ip", "netns", "exec", namespace, "ss", "-Hltnp"));
        final Set<Integer> ports = new TreeSet<>();
        for (final String line : listing.lines().toList()) {
            final Matcher m = LISTEN.matcher(line);
            if (m.find() && Long.parseLong(m.group(2)) == pid) {
                ports.add(Integer.parseInt(m.group(1)));
            }
        }
        return ports;
    }
}
