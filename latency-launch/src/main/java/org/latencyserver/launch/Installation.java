package org.latencyserver.launch;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the launcher ({@code ./latency} in a checkout, {@code bin/latency} in an unpacked distribution)
 * says this process's files are, from the system properties it sets:
 * <ul>
 *   <li>{@code latency.root}: the data the demo and the testbed read ({@code examples/}, {@code profiles/},
 *       {@code ops/}): the checkout's root, or the distribution's {@code share/latency};</li>
 *   <li>{@code latency.state}: where they keep their state and logs by default: the checkout's
 *       {@code .latency}, or the user's {@code ~/.latency} (or {@code LATENCY_STATE_DIR});</li>
 *   <li>{@code latency.home}: set only in a distribution, its root ({@code bin/}, {@code lib/}, {@code etc/}).</li>
 * </ul>
 * A process started without the launcher (a test) gets the working directory as root and
 * {@code ROOT/.latency} as state.
 *
 * <p>Immutable; thread-safe.
 *
 * @param root           the data root, absolute
 * @param stateDirectory the default state directory, absolute
 * @param home           the distribution's root, absolute; empty in a checkout
 */
public record Installation(Path root, Path stateDirectory, Optional<Path> home) {

    /** The system property naming the data root. */
    public static final String ROOT_PROPERTY = "latency.root";
    /** The system property naming the default state directory. */
    public static final String STATE_PROPERTY = "latency.state";
    /** The system property naming the distribution's root (absent in a checkout). */
    public static final String HOME_PROPERTY = "latency.home";

    /** @return what this process's launcher set */
    public static Installation current() {
        final Path root = absolute(System.getProperty(ROOT_PROPERTY, "."));
        final String state = System.getProperty(STATE_PROPERTY);
        final String home = System.getProperty(HOME_PROPERTY);
        return new Installation(root, state != null ? absolute(state) : root.resolve(".latency"),
            Optional.ofNullable(home).map(Installation::absolute));
    }

    /**
     * @param workDirectory logs and ready files of the processes it starts
     * @return a kit starting components as this installation's launcher does: through
     *     {@code bin/latency} in a distribution, from the modules' build output in a checkout
     */
    public ProcessKit processKit(final Path workDirectory) {
        return home.map(distribution -> ProcessKit.fromDistribution(distribution, workDirectory))
            .orElseGet(() -> ProcessKit.fromRepository(root, workDirectory));
    }

    /**
     * @return the command a person types to run a component here: {@code ./latency} in a checkout (run
     *     from its root), the distribution's {@code HOME/bin/latency} otherwise
     */
    public String launcherCommand() {
        return home.map(distribution -> distribution.resolve("bin").resolve("latency").toString()).orElse("./latency");
    }

    private static Path absolute(final String path) {
        return Path.of(path).toAbsolutePath().normalize();
    }
}
