package org.latencyserver.server.launch;

import static org.latencyserver.server.launch.ContextRules.require;
import static org.latencyserver.server.launch.ContextRules.requireDistinctIorAndReadyFiles;
import static org.latencyserver.server.launch.ContextRules.requireHost;

import java.nio.file.Path;
import org.latencyserver.orb.TlsStores;
import org.latencyserver.server.naming.NamingWritePolicy;

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
    private TlsStores tlsStores;
    private int tlsPort;
    private NamingWritePolicy writePolicy;
    private String metricsHost = DEFAULT_HOST;
    private Integer metricsPort;

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
     * @param stores  the naming service's certificate and the authorities whose writers' certificates it trusts
     * @param port    the fixed IIOP/TLS port, 1..65535 (writers are told it: {@code corbaloc:ssliop:1.2@HOST:PORT/NameService})
     * @return this, also listening for IIOP/TLS; needs a {@link #writePolicy}
     */
    public NamingServiceContext tls(final TlsStores stores, final int port) {
        this.tlsStores = stores;
        this.tlsPort = port;
        return this;
    }

    /**
     * @param policy who may change which names; changes are then refused over plain IIOP. Needs {@link #tls}
     * @return this
     */
    public NamingServiceContext writePolicy(final NamingWritePolicy policy) {
        this.writePolicy = policy;
        return this;
    }

    /**
     * @param address the address the metrics endpoint listens on (default loopback)
     * @param port    its port, 0..65535 (0: any free port); null for no metrics endpoint (the default)
     * @return this
     */
    public NamingServiceContext metrics(final String address, final Integer port) {
        this.metricsHost = address;
        this.metricsPort = port;
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
        require((tlsStores == null) == (writePolicy == null), tlsStores == null
            ? "a write policy needs IIOP/TLS (--tls-keystore, --tls-truststore, --tls-port): writers are known by their certificates"
            : "IIOP/TLS needs the writers' principals (--principals FILE): without them no one could bind");
        require(tlsStores == null || tlsPort >= 1 && tlsPort <= MAX_PORT && tlsPort != port,
            "the TLS port (--tls-port) must be 1..65535 and not the plain port " + port + ", was " + tlsPort);
        if (metricsPort != null) {
            requireHost(metricsHost);
            require(metricsPort >= 0 && metricsPort <= MAX_PORT, "the metrics port (--metrics-port) must be 0..65535 (0: any free"
                + " port), was " + metricsPort);
        }
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

    /** @return the TLS stores, or null when it talks plain IIOP only (and binds are open to any caller) */
    public TlsStores tlsStores() {
        return tlsStores;
    }

    /** @return its IIOP/TLS port; meaningful with {@link #tlsStores()} */
    public int tlsPort() {
        return tlsPort;
    }

    /** @return the address of the metrics endpoint */
    public String metricsHost() {
        return metricsHost;
    }

    /** @return the port of the metrics endpoint (0: any free port), or null for none */
    public Integer metricsPort() {
        return metricsPort;
    }

    /** @return who may change which names, or null when binds are open to any caller */
    public NamingWritePolicy writePolicy() {
        return writePolicy;
    }

    /**
     * @return how writers reach it over IIOP/TLS: {@code corbaloc:ssliop:1.2@HOST:TLSPORT/NameService}
     *         (JacORB gives an IIOP 1.0 address, the default, no TLS component: the version is needed);
     *         null without TLS
     */
    public String tlsCorbaloc() {
        return tlsStores == null ? null : "corbaloc:ssliop:1.2@" + host + ":" + tlsPort + "/NameService";
    }

    /** @return how components reach it: {@code corbaloc::HOST:PORT/NameService} */
    public String corbaloc() {
        return "corbaloc::" + host + ":" + port + "/NameService";
    }
}
