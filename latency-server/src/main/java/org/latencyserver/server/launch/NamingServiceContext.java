package org.latencyserver.server.launch;

import static org.latencyserver.server.launch.ContextRules.require;
import static org.latencyserver.server.launch.ContextRules.requireDistinctIorAndReadyFiles;
import static org.latencyserver.server.launch.ContextRules.requireHost;

import java.nio.file.Path;

/**
 * Everything a naming service needs to start, set before {@link NamingServiceNode#launch}: the
 * address and fixed port it is found at, the directory its bindings are kept in across clean
 * restarts, and the files it writes. {@link #conclude()} checks the whole; {@code launch} calls it.
 *
 * <p>Thread-safety: not thread-safe; one thread builds it and launches it.
 */
public final class NamingServiceContext {

    /** The naming service's customary port (the OMG's registered port for CORBA naming). */
    public static final int DEFAULT_PORT = 2809;
    /** The address it listens on unless told otherwise: loopback. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    private static final int MAX_PORT = 65_535;

    private String host = DEFAULT_HOST;
    private int port = DEFAULT_PORT;
    private Path databaseDirectory;
    private Path iorFile;
    private Path readyFile;

    /** @return this, listening on this address */
    public NamingServiceContext host(final String address) {
        this.host = address;
        return this;
    }

    /** @return this, listening on this port: 1..65535, fixed, because every component is told it */
    public NamingServiceContext port(final int fixedPort) {
        this.port = fixedPort;
        return this;
    }

    /** @return this, keeping its bindings in this directory (created when missing) across clean restarts */
    public NamingServiceContext databaseDirectory(final Path directory) {
        this.databaseDirectory = directory;
        return this;
    }

    /** @return this, also writing the root context's IOR to this file; null for none */
    public NamingServiceContext iorFile(final Path file) {
        this.iorFile = file;
        return this;
    }

    /** @return this, writing a ready file ({@code org.latencyserver.launch.ReadyFile}) here once it serves; null for none */
    public NamingServiceContext readyFile(final Path file) {
        this.readyFile = file;
        return this;
    }

    /**
     * Checks the context as a whole. Calling it again does nothing.
     *
     * @return this
     * @throws LaunchFailure {@link LaunchFailure.Kind#INVALID_CONTEXT} naming the setting that is wrong
     */
    public NamingServiceContext conclude() throws LaunchFailure {
        requireHost(host);
        require(port >= 1 && port <= MAX_PORT, "the port must be 1..65535 (the naming service is found at a fixed port), was "
            + port);
        require(databaseDirectory != null, "a database directory is needed (where the bindings are kept)");
        requireDistinctIorAndReadyFiles(iorFile, readyFile);
        return this;
    }

    /** @return the address it listens on */
    public String host() {
        return host;
    }

    /** @return its port */
    public int port() {
        return port;
    }

    /** @return where its bindings are kept */
    public Path databaseDirectory() {
        return databaseDirectory;
    }

    /** @return the IOR file, or null */
    public Path iorFile() {
        return iorFile;
    }

    /** @return the ready file, or null */
    public Path readyFile() {
        return readyFile;
    }

    /** @return how components reach it: {@code corbaloc::HOST:PORT/NameService} */
    public String corbaloc() {
        return "corbaloc::" + host + ":" + port + "/NameService";
    }
}
