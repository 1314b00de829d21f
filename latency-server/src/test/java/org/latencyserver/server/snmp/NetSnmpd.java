package org.latencyserver.server.snmp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * net-snmp's real {@code snmpd} (Debian package {@code snmpd}) run by a test in the foreground, in a
 * directory of its own: its log is {@code snmpd.log} there, its persistent directory
 * ({@code SNMP_PERSISTENT_DIR}: engine ID, localized v3 keys) is {@code persist/} there, and it
 * loads no MIB files (none are installed). It can be stopped and started again with the same
 * configuration.
 *
 * <p>Not thread-safe: one test thread starts and stops it.
 */
final class NetSnmpd implements AutoCloseable {

    static final Path SNMPD = Path.of("/usr/sbin/snmpd");

    private final Path directory;
    private final List<String> configArguments;
    private final Map<String, String> configEnvironment;
    private Process process;

    private NetSnmpd(final Path directory, final List<String> configArguments, final Map<String, String> configEnvironment) {
        this.directory = directory;
        this.configArguments = configArguments;
        this.configEnvironment = configEnvironment;
    }

    /**
     * An agent that reads its configuration from one file and no other ({@code -C -c FILE}).
     *
     * @param directory the agent's directory (log, persistent directory)
     * @param config    the configuration file
     * @return the agent, not started
     */
    static NetSnmpd readingOnly(final Path directory, final Path config) {
        return new NetSnmpd(directory, List.of("-C", "-c", config.toString()), Map.of());
    }

    /**
     * An agent laid out as on a Debian host: {@code etc/snmpd.conf} in its directory holds the given
     * configuration (the host's {@code /etc/snmp/snmpd.conf}) and its persistent directory's
     * {@code snmpd.conf} holds the {@code createUser} line, where {@code net-snmp-create-v3-user}
     * writes it (the host's {@code /var/lib/snmp/snmpd.conf}); snmpd replaces it with the user's
     * localized keys when it starts.
     *
     * <p>net-snmp reads {@code snmpd.conf} from each directory of its configuration path and then,
     * when {@code SNMPCONFPATH} is unset, from its persistent directory. The test sets
     * {@code SNMPCONFPATH} (to keep the machine's own {@code /etc/snmp} out), which replaces that
     * whole search, persistent directory included; so the path names the persistent directory last,
     * in the place the default search reads it. Without it, snmpd 5.9 never reads the user.
     *
     * @param directory      the agent's directory
     * @param config         the text of its {@code snmpd.conf}
     * @param createUserLine the {@code createUser} line
     * @return the agent, not started
     * @throws IOException when a file cannot be written
     */
    static NetSnmpd installed(final Path directory, final String config, final String createUserLine) throws IOException {
        final Path etc = Files.createDirectories(directory.resolve("etc"));
        final Path persistent = Files.createDirectories(directory.resolve("persist"));
        Files.writeString(etc.resolve("snmpd.conf"), config);
        Files.writeString(persistent.resolve("snmpd.conf"), createUserLine + "\n");
        return new NetSnmpd(directory, List.of(), Map.of("SNMPCONFPATH", etc + ":" + persistent));
    }

    /** @return a loopback UDP port free a moment ago, for an agent's {@code agentAddress} */
    static int freeUdpPort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** @return 24 random hex digits: a community or a v3 passphrase (net-snmp wants 8 characters or more) */
    static String secret() {
        final byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /**
     * Starts the agent (in the foreground, logging to {@code snmpd.log}); it answers once it has read
     * its configuration and bound its address.
     *
     * @throws IOException when it cannot be started
     */
    void start() throws IOException {
        assertTrue(Files.isExecutable(SNMPD), "net-snmp's agent is needed: apt-get install snmpd");
        final List<String> command = new ArrayList<>(List.of(SNMPD.toString(), "-f", "-Lo"));
        command.addAll(configArguments);
        final ProcessBuilder builder = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve("snmpd.log").toFile()));
        builder.environment().putAll(configEnvironment);
        builder.environment().put("SNMP_PERSISTENT_DIR", directory.resolve("persist").toString());
        // No MIB files are installed; do not let it try to load them.
        builder.environment().put("MIBS", "");
        process = builder.start();
    }

    /**
     * Stops the agent (SIGTERM) and waits up to 5 s for it.
     *
     * @return whether it has stopped
     */
    boolean stop() throws InterruptedException {
        if (process == null) {
            return true;
        }
        process.destroy();
        final boolean stopped = process.waitFor(5, TimeUnit.SECONDS);
        process = null;
        return stopped;
    }

    /** @return what the agent logged, up to 20 lines, without the MIB loader's complaints and the requests it took */
    String logExcerpt() throws IOException {
        final Path log = directory.resolve("snmpd.log");
        if (!Files.exists(log)) {
            return "(no snmpd.log)";
        }
        return Files.readString(log).lines().filter(line -> !line.contains("MIB") && !line.contains("OID") && !line.startsWith("Connection from"))
            .limit(20).toList().toString();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
