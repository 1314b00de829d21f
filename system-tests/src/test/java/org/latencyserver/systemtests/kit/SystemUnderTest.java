package org.latencyserver.systemtests.kit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadinessException;
import org.latencyserver.orb.PlainOrbs;
import org.omg.CORBA.ORB;

/**
 * The one process kit of the system tests: the system's components started as {@code ./latency
 * COMMAND} starts them (each in its own JVM, from this module's test class path, which holds every
 * component), each awaited by its ready file ({@code docs/ready-files.md}), never by a log line;
 * and a client ORB to call them. Built on latency-launch's {@link ProcessKit}; {@link #close} stops
 * every child, the last started first, and shuts the ORB down.
 *
 * <p>Each child's output is in {@code DIRECTORY/NAME.log} (failures quote its end), its ready file
 * {@code DIRECTORY/NAME.ready.json}. The children log as in production (INFO to standard error,
 * {@code child-logback.xml}), not as the tests do.
 *
 * <p>Thread-safety: not thread-safe; one test thread starts and stops.
 */
public final class SystemUnderTest implements AutoCloseable {

    /** How long a component may take to start serving on a busy machine. */
    public static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final ProcessKit kit;
    private ORB orb;

    private SystemUnderTest(final ProcessKit kit) {
        this.kit = kit;
    }

    /**
     * JVM options of the children of {@link #in}: the client compiler only and the serial collector.
     * A child of a test that checks behaviour lives seconds, and on two shared cores the server
     * compiler's threads compete with it: a peer agent reached its ready file in 0.7–1.3 s with
     * these against 2.0–2.5 s without, and seven such test classes took 70–72 s against 113–154 s
     * (load average 9–16 here).
     */
    private static final List<String> QUICK_START_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    /**
     * For a test that checks behaviour: every child starts with {@link #QUICK_START_OPTIONS}.
     *
     * @param directory where logs, ready files, IOR files go
     * @return a kit with nothing running yet
     */
    public static SystemUnderTest in(final Path directory) {
        return withOptions(directory, QUICK_START_OPTIONS);
    }

    /**
     * For a test whose checks rest on measured round trips or CPU load (a profile measured, load
     * driven to a CPU state): every child's JVM compiles and collects as in production.
     *
     * @param directory where logs, ready files, IOR files go
     * @return a kit with nothing running yet
     */
    public static SystemUnderTest measuringIn(final Path directory) {
        return withOptions(directory, List.of());
    }

    private static SystemUnderTest withOptions(final Path directory, final List<String> jvmOptions) {
        final List<String> options = new ArrayList<>(jvmOptions);
        options.add("-Dlogback.configurationFile=" + childLogbackConfiguration());
        // This class path holds logback configurations of several modules; logback would say so on stdout.
        options.add("-Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener");
        return new SystemUnderTest(ProcessKit.fromThisClasspath(directory, options.toArray(String[]::new)));
    }

    /** @return where logs and ready files go */
    public Path directory() {
        return kit.workDirectory();
    }

    /**
     * @param component what to start
     * @return its launch, named after the component, to complete and {@link #start} (or {@code start()} to not wait)
     */
    public ProcessKit.Launch launch(final Component component) {
        return kit.launch(component);
    }

    /**
     * For a component run once as a script runs it (e.g. {@code console --once}), which must not be
     * given a ready file.
     *
     * @param name      its log's name
     * @param component the component
     * @return its launch, without {@code --ready-file}
     */
    public ProcessKit.Launch launchOneShot(final String name, final Component component) {
        return kit.launchClass(name, component.mainClass());
    }

    /**
     * @param name      its log's name
     * @param mainClass a test's own program, run in its own JVM (it writes no ready file)
     * @return its launch
     */
    public ProcessKit.Launch launchClass(final String name, final Class<?> mainClass) {
        return kit.launchClass(name, mainClass.getName());
    }

    /**
     * @param name    its log's name
     * @param command a program that is not Java and its first arguments
     * @return its launch (writes no ready file; stopped with the kit's children)
     */
    public ProcessKit.Launch launchProgram(final String name, final java.util.List<String> command) {
        return kit.launchProgram(name, command);
    }

    /**
     * Starts a component and waits for its ready file.
     *
     * @param launch a launch of a component that writes one
     * @return it, serving
     * @throws ReadinessException when it exits first or takes longer than {@link #READY_TIMEOUT}, quoting its log
     */
    public ReadyProcess start(final ProcessKit.Launch launch) throws IOException, InterruptedException {
        final ChildProcess child = launch.start();
        try {
            return new ReadyProcess(child, child.awaitReady(READY_TIMEOUT));
        } catch (ReadinessException e) {
            kit.stop(child);
            throw e;
        }
    }

    /**
     * A server's launch: {@code --config CONFIG --ior-file DIRECTORY/NAME.ior}, to complete (e.g.
     * {@code --metrics-port}, {@code --naming}, {@link ProcessKit.Launch#env} for secrets) and start.
     *
     * @param name   its name (log, ready and IOR file)
     * @param config its configuration
     * @return the launch
     */
    public ProcessKit.Launch serverLaunch(final String name, final Path config) {
        return launch(Component.SERVER).name(name)
            .args("--config", config.toString(), "--ior-file", directory().resolve(name + ".ior").toString());
    }

    /** As {@link #server(Path, Map)} without extra environment. */
    public ServerUnderTest server(final Path config) throws IOException, InterruptedException {
        return server(config, Map.of());
    }

    /**
     * Starts a server named {@code server} with its metrics on any free port and waits until it serves.
     *
     * @param config      its configuration
     * @param environment e.g. a TLS password or an SNMP community (never on the command line)
     * @return the serving server
     */
    public ServerUnderTest server(final Path config, final Map<String, String> environment)
        throws IOException, InterruptedException {
        return new ServerUnderTest(start(serverLaunch("server", config).args("--metrics-port", "0").env(environment)));
    }

    /**
     * Stops one child (SIGTERM, then SIGKILL after 10 s) and forgets it.
     *
     * @param child a child of this kit
     * @return whether it and its descendants ended
     */
    public boolean stop(final ChildProcess child) throws InterruptedException {
        return kit.stop(child);
    }

    /**
     * @return this kit's client ORB (plain IIOP on loopback, no reply time-out), made on first use and
     *     shut down by {@link #close}
     */
    public ORB orb() {
        if (orb == null) {
            orb = newClientOrb();
        }
        return orb;
    }

    /**
     * @return a new plain-IIOP client ORB on loopback with no reply time-out, JacORB quiet; the caller
     *     shuts it down
     */
    public static ORB newClientOrb() {
        return PlainOrbs.init();
    }

    /**
     * @return a TCP port on loopback that was free a moment ago, for a component that must be told a fixed port
     *     (a naming service)
     */
    public static int freeTcpPort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Stops every child, the last started first, then shuts the client ORB down. */
    @Override
    public void close() {
        try {
            kit.stopAll();
        } finally {
            if (orb != null) {
                orb.shutdown(false);
                orb = null;
            }
        }
    }

    private static String childLogbackConfiguration() {
        final URL url = SystemUnderTest.class.getResource("/child-logback.xml");
        if (url == null) {
            throw new IllegalStateException("child-logback.xml is missing from the test class path");
        }
        try {
            return Path.of(url.toURI()).toString();
        } catch (URISyntaxException e) {
            throw new UncheckedIOException(new IOException("child-logback.xml is at " + url, e));
        }
    }
}
