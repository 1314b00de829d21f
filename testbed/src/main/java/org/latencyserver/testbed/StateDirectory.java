package org.latencyserver.testbed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where a testbed keeps what it made: {@code status.json} (read by programs), each agent's
 * {@code snmpd/NODE/} (snmpd.conf, persist/, snmpd.pid, snmpd.log), each load's
 * {@code load/PORT.*} (pid files, iperf3's output). Mode 700: the configurations hold the SNMP
 * secrets. By default {@code .latency/testbed/NAME/} of the checkout
 * (of {@code ~/.latency} in a distribution).
 *
 * <p>Immutable; thread-safe (the files are not).
 *
 * @param root the directory
 */
public record StateDirectory(Path root) {

    /** The status file's name. */
    public static final String STATUS_FILE = "status.json";

    /**
     * @param stateDirectory the launcher's state directory ({@code latency.state}: a checkout's {@code .latency})
     * @param testbed        the testbed's name
     * @return its default state directory, {@code STATE/testbed/NAME}
     */
    public static StateDirectory standard(final Path stateDirectory, final String testbed) {
        return new StateDirectory(stateDirectory.resolve("testbed").resolve(testbed).toAbsolutePath().normalize());
    }

    /** @return the status file */
    public Path statusFile() {
        return root.resolve(STATUS_FILE);
    }

    /** @return an agent's directory */
    public Path agent(final String node) {
        return root.resolve("snmpd").resolve(node);
    }

    /** @return where a port's load keeps its pid files and output */
    public Path load(final String port) {
        return root.resolve("load").resolve(port);
    }

    /** Creates the directory (and parents), mode 700. */
    public void create() throws IOException {
        Files.createDirectories(root);
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx------"));
    }

    /** @return every {@code *.pid} file under it */
    public List<Path> pidFiles() throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".pid")).sorted().toList();
        }
    }

    /** Deletes it and all it holds (nothing when it does not exist). */
    public void delete() throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (final Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }
}
