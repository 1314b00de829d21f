package org.latencyserver.testbed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a testbed needs of this machine, checked before anything is made: the capabilities to make
 * namespaces and interfaces (CAP_NET_ADMIN and CAP_SYS_ADMIN: root) and the programs it runs.
 * {@link #missing} says exactly what is not there, with the Debian package that brings it.
 *
 * <p>Stateless; thread-safe.
 */
public final class Prerequisites {

    /** A program the testbed runs, and its Debian package. */
    public enum Tool {
        /** Namespaces, interfaces, addresses. */
        IP("ip", "iproute2"),
        /** The bottlenecks' tbf. */
        TC("tc", "iproute2"),
        /** The agents. */
        SNMPD("snmpd", "snmpd"),
        /** The load. */
        IPERF3("iperf3", "iperf3");

        private final String program;
        private final String debianPackage;

        Tool(final String program, final String debianPackage) {
            this.program = program;
            this.debianPackage = debianPackage;
        }

        /** @return the program's name */
        public String program() {
            return program;
        }
    }

    /** CAP_NET_ADMIN's bit in /proc/self/status CapEff. */
    private static final int CAP_NET_ADMIN = 12;
    /** CAP_SYS_ADMIN's bit: {@code ip netns add} mounts. */
    private static final int CAP_SYS_ADMIN = 21;
    /** Where sbin programs are when PATH lacks them (a non-root PATH). */
    private static final List<String> SBIN = List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin");

    private Prerequisites() {
    }

    /**
     * @param tools the programs this command runs
     * @return one line per thing missing, empty when the command can run here
     */
    public static List<String> missing(final Set<Tool> tools) {
        final List<String> missing = new ArrayList<>();
        capabilityFault().ifPresent(missing::add);
        for (final Tool tool : tools) {
            if (find(tool.program).isEmpty()) {
                missing.add("the program " + tool.program + " (Debian: apt-get install " + tool.debianPackage + ")");
            }
        }
        return missing;
    }

    /**
     * @param program a program's name
     * @return its path on PATH or in the sbin directories, if there
     */
    public static Optional<Path> find(final String program) {
        final Set<String> directories = new LinkedHashSet<>();
        final String path = System.getenv("PATH");
        if (path != null) {
            directories.addAll(List.of(path.split(":")));
        }
        directories.addAll(SBIN);
        return directories.stream().filter(d -> !d.isEmpty()).map(d -> Path.of(d, program))
            .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p)).findFirst();
    }

    /** @return why this process cannot make namespaces, or empty when it can */
    static Optional<String> capabilityFault() {
        final long effective;
        try {
            effective = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("CapEff:"))
                .map(l -> Long.parseUnsignedLong(l.substring("CapEff:".length()).strip(), 16)).findFirst().orElse(0L);
        } catch (IOException | RuntimeException e) {
            return Optional.of("root: cannot read this process's capabilities in /proc/self/status (" + e.getMessage() + ")");
        }
        final List<String> lacking = new ArrayList<>();
        if ((effective & (1L << CAP_NET_ADMIN)) == 0) {
            lacking.add("CAP_NET_ADMIN");
        }
        if ((effective & (1L << CAP_SYS_ADMIN)) == 0) {
            lacking.add("CAP_SYS_ADMIN");
        }
        return lacking.isEmpty() ? Optional.empty()
            : Optional.of("root: this process lacks " + String.join(" and ", lacking)
                + " (namespaces, interfaces and qdiscs need them: run as root)");
    }
}
