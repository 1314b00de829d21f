package org.latencyserver.server.launch;

import static org.latencyserver.server.launch.ContextRules.invalid;
import static org.latencyserver.server.launch.ContextRules.require;
import static org.latencyserver.server.launch.ContextRules.requireDistinctIorAndReadyFiles;
import static org.latencyserver.server.launch.ContextRules.requireHost;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.latencyserver.orb.NameKeeper;
import org.latencyserver.server.config.ConfigurationException;
import org.latencyserver.server.config.ConfigurationLoader;
import org.latencyserver.server.config.ServerConfiguration;

/**
 * Everything a Latency Server needs to start, set before {@link LatencyServerNode#launch}: the
 * configuration (a file or one already loaded), where it listens, which files it writes, which
 * naming service it registers in, its clocks and its tuning. {@link #conclude()} loads the
 * configuration and checks the whole; {@code launch} calls it.
 *
 * <p>Every setter returns this, so a context is built in one expression. Defaults: listen on
 * 127.0.0.1 at any free port, no IOR file, no ready file, no naming service, metrics as the
 * configuration says, the system clocks, and the tuning constants below.
 *
 * <p>Thread-safety: not thread-safe; one thread builds it and launches it.
 */
public final class ServerContext {

    /** Changes nobody waits for are appended to the state journal at most this often. */
    public static final long DEFAULT_STATE_FLUSH_INTERVAL_MILLIS = 100;
    /** The engine's duty (measurement time-outs, deferred requests) runs this often: 50 ms. */
    public static final long DEFAULT_ENGINE_TICK_INTERVAL_NANOS = 50_000_000L;
    /** How long a call to a subscriber's callback may wait for its reply before the subscriber is dropped. */
    public static final long DEFAULT_CALLBACK_REPLY_TIMEOUT_MILLIS = 2_000;
    /** Every subscriber's listener is asked this often whether it still exists (the dead are dropped): 30 s. */
    public static final long DEFAULT_SUBSCRIBER_CHECK_INTERVAL_MILLIS = 30_000;
    /** At most one log line per kind of repeated warning per this interval. */
    public static final long DEFAULT_REPEATED_WARNING_INTERVAL_MILLIS = 10_000;
    /** The address the ORB listens on unless told otherwise: loopback. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** {@link #metricsPort(Integer)}: no metrics endpoint, whatever the configuration says. */
    public static final int METRICS_OFF = -1;

    private static final int MAX_PORT = 65_535;

    private Path configFile;
    private ServerConfiguration configuration;
    private Path iorFile;
    private Path readyFile;
    private String namingReference;
    private String host = DEFAULT_HOST;
    private int orbPort;
    private Integer metricsPort;
    private boolean perConnectionMetrics = true;
    private LongSupplier nanoClock = System::nanoTime;
    private LongSupplier epochMillis = System::currentTimeMillis;
    private long stateFlushIntervalMillis = DEFAULT_STATE_FLUSH_INTERVAL_MILLIS;
    private long engineTickIntervalNanos = DEFAULT_ENGINE_TICK_INTERVAL_NANOS;
    private long callbackReplyTimeoutMillis = DEFAULT_CALLBACK_REPLY_TIMEOUT_MILLIS;
    private long repeatedWarningIntervalMillis = DEFAULT_REPEATED_WARNING_INTERVAL_MILLIS;
    private long nameCheckIntervalMillis = NameKeeper.DEFAULT_CHECK_INTERVAL_MILLIS;
    private long subscriberCheckIntervalMillis = DEFAULT_SUBSCRIBER_CHECK_INTERVAL_MILLIS;
    private boolean concluded;

    /** @return this, to read the YAML configuration from this file at {@link #conclude()} */
    public ServerContext configFile(final Path file) {
        this.configFile = file;
        return this;
    }

    /** @return this, with a configuration already loaded (instead of a file) */
    public ServerContext configuration(final ServerConfiguration loaded) {
        this.configuration = loaded;
        return this;
    }

    /** @return this, writing the server's IOR to this file once it serves; null for none */
    public ServerContext iorFile(final Path file) {
        this.iorFile = file;
        return this;
    }

    /** @return this, writing a ready file ({@code org.latencyserver.launch.ReadyFile}) here once it serves; null for none */
    public ServerContext readyFile(final Path file) {
        this.readyFile = file;
        return this;
    }

    /**
     * @return this, registering under {@code server.name} in this naming service (a corbaloc or IOR), or as a partition of
     *     the deployment of that name with {@code server.partition}; null for none
     */
    public ServerContext namingReference(final String reference) {
        this.namingReference = reference;
        return this;
    }

    /** @return this, the ORB listening on this address */
    public ServerContext host(final String address) {
        this.host = address;
        return this;
    }

    /** @return this, the ORB listening on this port (plain IIOP); 0 for any free port */
    public ServerContext orbPort(final int port) {
        this.orbPort = port;
        return this;
    }

    /**
     * @param port the metrics endpoint's port, overriding the configuration's {@code server.metrics}
     *             (then on {@link #host}): 0 any free port, {@link #METRICS_OFF} none; null keeps the configuration's
     * @return this
     */
    public ServerContext metricsPort(final Integer port) {
        this.metricsPort = port;
        return this;
    }

    /**
     * @param perConnection whether the metrics carry a series per connection (estimates, states,
     *                      calibration); false leaves the totals only, for a server of many thousands
     *                      of connections (about 590 bytes of metrics page per connection)
     * @return this
     */
    public ServerContext perConnectionMetrics(final boolean perConnection) {
        this.perConnectionMetrics = perConnection;
        return this;
    }

    /** @return this, with a monotonic clock in nanoseconds (engine loop, state store, metrics) */
    public ServerContext nanoClock(final LongSupplier clock) {
        this.nanoClock = clock;
        return this;
    }

    /** @return this, with a wall clock in epoch milliseconds (rows' timestamps, request deadlines) */
    public ServerContext epochMillis(final LongSupplier clock) {
        this.epochMillis = clock;
        return this;
    }

    /** @return this, see {@link #DEFAULT_STATE_FLUSH_INTERVAL_MILLIS} */
    public ServerContext stateFlushIntervalMillis(final long millis) {
        this.stateFlushIntervalMillis = millis;
        return this;
    }

    /** @return this, see {@link #DEFAULT_ENGINE_TICK_INTERVAL_NANOS} */
    public ServerContext engineTickIntervalNanos(final long nanos) {
        this.engineTickIntervalNanos = nanos;
        return this;
    }

    /** @return this, see {@link #DEFAULT_CALLBACK_REPLY_TIMEOUT_MILLIS} */
    public ServerContext callbackReplyTimeoutMillis(final long millis) {
        this.callbackReplyTimeoutMillis = millis;
        return this;
    }

    /** @return this, see {@link #DEFAULT_REPEATED_WARNING_INTERVAL_MILLIS} */
    public ServerContext repeatedWarningIntervalMillis(final long millis) {
        this.repeatedWarningIntervalMillis = millis;
        return this;
    }

    /** @return this, checking the naming service's binding this often (see {@code NameKeeper}) */
    public ServerContext nameCheckIntervalMillis(final long millis) {
        this.nameCheckIntervalMillis = millis;
        return this;
    }

    /** @return this, see {@link #DEFAULT_SUBSCRIBER_CHECK_INTERVAL_MILLIS} */
    public ServerContext subscriberCheckIntervalMillis(final long millis) {
        this.subscriberCheckIntervalMillis = millis;
        return this;
    }

    /**
     * Loads the configuration when a file was given and checks the context as a whole. Calling it
     * again does nothing.
     *
     * @return this
     * @throws LaunchFailure {@link LaunchFailure.Kind#CONFIGURATION_REFUSED} with every fault of the
     *                       configuration, or {@link LaunchFailure.Kind#INVALID_CONTEXT} naming the setting
     *                       that is wrong
     */
    public ServerContext conclude() throws LaunchFailure {
        if (concluded) {
            return this;
        }
        if ((configFile == null) == (configuration == null)) {
            throw invalid("give either a configuration file or a loaded configuration, not "
                + (configFile == null ? "neither" : "both"));
        }
        requireHost(host);
        require(orbPort >= 0 && orbPort <= MAX_PORT, "the port must be 0..65535 (0: any free port), was " + orbPort);
        require(metricsPort == null || (metricsPort >= METRICS_OFF && metricsPort <= MAX_PORT),
            "the metrics port must be -1 (none), 0 (any free port) or 1..65535, was " + metricsPort);
        require(namingReference == null || !namingReference.isBlank(), "the naming service reference must not be blank");
        requireDistinctIorAndReadyFiles(iorFile, readyFile);
        Objects.requireNonNull(nanoClock, "nanoClock");
        Objects.requireNonNull(epochMillis, "epochMillis");
        require(stateFlushIntervalMillis >= 1, "the state flush interval must be >= 1 ms, was " + stateFlushIntervalMillis);
        require(engineTickIntervalNanos >= 1, "the engine tick interval must be >= 1 ns, was " + engineTickIntervalNanos);
        require(callbackReplyTimeoutMillis >= 1, "the callback reply timeout must be >= 1 ms, was " + callbackReplyTimeoutMillis);
        require(repeatedWarningIntervalMillis >= 1,
            "the repeated-warning interval must be >= 1 ms, was " + repeatedWarningIntervalMillis);
        require(nameCheckIntervalMillis >= 1, "the name check interval must be >= 1 ms, was " + nameCheckIntervalMillis);
        require(subscriberCheckIntervalMillis >= 1,
            "the subscriber check interval must be >= 1 ms, was " + subscriberCheckIntervalMillis);
        if (configuration == null) {
            try {
                configuration = ConfigurationLoader.load(configFile);
            } catch (ConfigurationException e) {
                throw new LaunchFailure(LaunchFailure.Kind.CONFIGURATION_REFUSED, "the configuration is refused:\n" + e.getMessage());
            }
        }
        concluded = true;
        return this;
    }

    /** @return the configuration; loaded by {@link #conclude()} */
    public ServerConfiguration configuration() {
        if (configuration == null) {
            throw new IllegalStateException("the configuration is loaded by conclude()");
        }
        return configuration;
    }

    /** @return the IOR file, or null */
    public Path iorFile() {
        return iorFile;
    }

    /** @return the ready file, or null */
    public Path readyFile() {
        return readyFile;
    }

    /** @return the naming service's reference, or null */
    public String namingReference() {
        return namingReference;
    }

    /** @return the address the ORB listens on */
    public String host() {
        return host;
    }

    /** @return the ORB's port; 0 for any free port */
    public int orbPort() {
        return orbPort;
    }

    /** @return the metrics port override (see {@link #metricsPort(Integer)}), or null */
    public Integer metricsPort() {
        return metricsPort;
    }

    /** @return whether the metrics carry a series per connection (see {@link #perConnectionMetrics(boolean)}) */
    public boolean perConnectionMetrics() {
        return perConnectionMetrics;
    }

    /** @return the monotonic clock, nanoseconds */
    public LongSupplier nanoClock() {
        return nanoClock;
    }

    /** @return the wall clock, epoch milliseconds */
    public LongSupplier epochMillis() {
        return epochMillis;
    }

    /** @return see {@link #DEFAULT_STATE_FLUSH_INTERVAL_MILLIS} */
    public long stateFlushIntervalMillis() {
        return stateFlushIntervalMillis;
    }

    /** @return see {@link #DEFAULT_ENGINE_TICK_INTERVAL_NANOS} */
    public long engineTickIntervalNanos() {
        return engineTickIntervalNanos;
    }

    /** @return see {@link #DEFAULT_CALLBACK_REPLY_TIMEOUT_MILLIS} */
    public long callbackReplyTimeoutMillis() {
        return callbackReplyTimeoutMillis;
    }

    /** @return see {@link #DEFAULT_REPEATED_WARNING_INTERVAL_MILLIS} */
    public long repeatedWarningIntervalMillis() {
        return repeatedWarningIntervalMillis;
    }

    /** @return how often the naming service's binding is checked, milliseconds */
    public long nameCheckIntervalMillis() {
        return nameCheckIntervalMillis;
    }

    /** @return see {@link #DEFAULT_SUBSCRIBER_CHECK_INTERVAL_MILLIS} */
    public long subscriberCheckIntervalMillis() {
        return subscriberCheckIntervalMillis;
    }
}
