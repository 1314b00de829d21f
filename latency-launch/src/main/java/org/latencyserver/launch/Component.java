package org.latencyserver.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The registry of launchable components: for each, the command name {@code ./latency} knows it by,
 * the Maven module whose classes and {@code target/lib} run it, its main class, and whether it writes
 * a {@link ReadyFile} once serving.
 *
 * <p>The rows live in one file, {@code components.tsv} next to this class (tab-separated, a header
 * line first), because the {@code ./latency} script reads the same file: a main class is named in
 * exactly one place. This enum gives Java callers a typed handle on each row and fails at class
 * initialisation when the file and the enum disagree (a test checks that too).
 *
 * <p>Immutable; thread-safe.
 */
public enum Component {
    /** A CORBA Naming Service (JacORB's). */
    NAMING_SERVICE("naming-service"),
    /** The Latency Server. */
    SERVER("server"),
    /** A local certificate authority and TLS certificates (runs once, writes no ready file). */
    CERTS("certs"),
    /** Emulated workstations and switch ports as SNMP agents, following a scenario. */
    SNMP_EMULATOR("snmp-emulator"),
    /** The echo end of round trips. */
    PEER_AGENT("peer-agent"),
    /** The client agent: measures QoS 3/4 connections. */
    CLIENT_AGENT("client-agent"),
    /** The profiler: {@code profile measure|load|learned}. */
    PROFILER("profiler"),
    /** The profile tool: {@code profile validate|diff}. */
    PROFILE("profile"),
    /** The host-local estimate mirror. */
    MIRROR("mirror"),
    /** Prints a mirror file as applications read it. */
    MIRROR_READ("mirror-read"),
    /** The operator's status console. */
    CONSOLE("console"),
    /** The whole system on loopback. */
    DEMO("demo"),
    /** Hosts as network namespaces on Linux bridges, with snmpd per host and switch and port load (root). */
    TESTBED("testbed");

    /** The registry file, a resource next to this class. */
    public static final String REGISTRY_RESOURCE = "components.tsv";

    private final String command;
    private Row row;

    Component(final String command) {
        this.command = command;
    }

    static {
        final Map<Component, Row> rows = readRegistry();
        for (final Component component : values()) {
            final Row row = rows.get(component);
            if (row == null) {
                throw new IllegalStateException(REGISTRY_RESOURCE + " has no row for component '" + component.command + "'");
            }
            component.row = row;
        }
    }

    /** @return the name {@code ./latency} knows it by, e.g. {@code snmp-emulator} */
    public String command() {
        return command;
    }

    /** @return the Maven module (a directory of the repository) whose classes run it */
    public String module() {
        return row.module;
    }

    /** @return its main class's binary name */
    public String mainClass() {
        return row.mainClass;
    }

    /** @return whether it writes a ready file ({@code --ready-file PATH}) once serving */
    public boolean writesReadyFile() {
        return row.writesReadyFile;
    }

    /** @return one line on what it is */
    public String summary() {
        return row.summary;
    }

    /**
     * @param command a name as {@code ./latency} knows it
     * @return the component of that name, if there is one
     */
    public static Optional<Component> ofCommand(final String command) {
        return Arrays.stream(values()).filter(component -> component.command.equals(command)).findFirst();
    }

    private record Row(String module, String mainClass, boolean writesReadyFile, String summary) {
    }

    private static Map<Component, Row> readRegistry() {
        final Map<Component, Row> rows = new EnumMap<>(Component.class);
        try (InputStream in = Component.class.getResourceAsStream(REGISTRY_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + REGISTRY_RESOURCE + " is missing from the classpath");
            }
            final BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            reader.readLine(); // the header
            String line;
            int lineNumber = 1;
            while ((line = reader.readLine()) != null) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                final String[] fields = line.split("\t", -1);
                if (fields.length != 5) {
                    throw new IllegalStateException(REGISTRY_RESOURCE + ":" + lineNumber + ": " + fields.length
                        + " tab-separated fields, expected 5 (component, module, main_class, ready_file, summary)");
                }
                final String commandName = fields[0];
                final Component component = ofCommandWithoutRows(commandName);
                if (component == null) {
                    throw new IllegalStateException(REGISTRY_RESOURCE + ":" + lineNumber + ": component '" + commandName
                        + "' has no constant in " + Component.class.getName());
                }
                if (!fields[3].equals("yes") && !fields[3].equals("no")) {
                    throw new IllegalStateException(REGISTRY_RESOURCE + ":" + lineNumber + ": ready_file '" + fields[3]
                        + "', expected yes or no");
                }
                if (rows.put(component, new Row(fields[1], fields[2], fields[3].equals("yes"), fields[4])) != null) {
                    throw new IllegalStateException(REGISTRY_RESOURCE + ":" + lineNumber + ": component '" + commandName + "' twice");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + REGISTRY_RESOURCE, e);
        }
        return rows;
    }

    /** Used while the rows are being read: {@link #values()} works, the rows are not there yet. */
    private static Component ofCommandWithoutRows(final String command) {
        for (final Component component : values()) {
            if (component.command.equals(command)) {
                return component;
            }
        }
        return null;
    }
}
