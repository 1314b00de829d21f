package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadinessException;

/**
 * {@link StandbyLoadKillHarness} on a testbed of its own: five hosts on one switch ({@link #HOSTS}, 198.18.0.0/24,
 * no default route), built with {@code testbed up}, the harness run again inside ws1's network namespace with
 * {@code --placement STATUS} (so its applications and writer call from ws1), and the testbed taken down with
 * {@code testbed down} when the run ends, fails, or this process is interrupted (SIGINT, SIGTERM) — {@code down}
 * also ends every process left inside the namespaces.
 *
 * <p>Not thread-safe: one run per instance; its shutdown hook and its main path take the testbed down once between them.
 */
final class StandbyPairTestbed {

    /** The testbed's hosts: the naming service, the pair's two servers, the applications' and the peer's workstations. */
    static final List<String> HOSTS = List.of("nsh", "pa", "pb", "ws1", "ws2");
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(90);
    /** Exit status when the harness succeeded but the testbed could not be taken down. */
    static final int TEARDOWN_FAILED = 3;

    private final String name;
    private final int[] replicationPorts;
    private final Path directory;
    private final Path state;
    private final AtomicBoolean down = new AtomicBoolean();
    private volatile Process harness;

    /**
     * @param name             the testbed's name (its namespaces are {@code lt-NAME-*}); a–z then a–z0–9, up to 12
     * @param replicationPorts the replication ports of the servers on pa and pb
     * @param directory        where the topology, the testbed's state directory and the logs go
     */
    StandbyPairTestbed(final String name, final int[] replicationPorts, final Path directory) {
        this.name = name;
        this.replicationPorts = replicationPorts.clone();
        this.directory = directory;
        this.state = directory.resolve("testbed-state");
    }

    /** @return the topology: sw1 with nsh .1, pa .2, pb .3, ws1 .4, ws2 .5 of 198.18.0.0/24; no bottleneck */
    String topology() {
        final StringBuilder yaml = new StringBuilder("name: " + name + "\nswitches:\n"
            + "  - { name: sw1, management_address: 198.18.0.254/24 }\nhosts:\n");
        for (int i = 0; i < HOSTS.size(); i++) {
            yaml.append("  - { name: ").append(HOSTS.get(i)).append(", switch: sw1, address: 198.18.0.").append(i + 1).append("/24 }\n");
        }
        return yaml.toString();
    }

    /**
     * Builds the testbed, runs the harness in ws1 with its output on this process's, and takes the testbed down.
     *
     * @param kills the harness's number of kills
     * @return the harness's exit status (0 when it ran every kill; {@value #TEARDOWN_FAILED} when it did but the testbed could not be taken down)
     */
    int run(final int kills) throws IOException, InterruptedException {
        Files.createDirectories(directory);
        final Path topology = directory.resolve("standby-pair.yaml");
        Files.writeString(topology, topology());
        final Thread hook = new Thread(this::stopAndTakeDown, "standby-pair-testbed-down");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            System.out.println("standby pair testbed: building " + name + " (namespaces lt-" + name + "-*, state " + state + ")");
            testbed("testbed-up", "up", "--topology", topology.toString(), "--state-dir", state.toString());
            final String ws1 = PairPlacement.onTestbed(state.resolve("status.json"), replicationPorts).workstation().namespace();
            final List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", ws1,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
                StandbyLoadKillHarness.class.getName(), Integer.toString(kills), "--placement", state.resolve("status.json").toString(),
                "--replication-ports", replicationPorts[0] + "," + replicationPorts[1]));
            harness = new ProcessBuilder(command).inheritIO().start();
            final int status = harness.waitFor();
            return stopAndTakeDown() || status != 0 ? status : TEARDOWN_FAILED;
        } finally {
            stopAndTakeDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs or has run: the testbed is taken down there
            }
        }
    }

    /**
     * Ends the harness in ws1 (if it runs) and takes the testbed down, once; reports a failure of {@code down}.
     *
     * @return false when this call's {@code down} failed (true when it succeeded or an earlier call ran it)
     */
    private boolean stopAndTakeDown() {
        if (!down.compareAndSet(false, true)) {
            return true;
        }
        final Process running = harness;
        try {
            if (running != null && running.isAlive()) {
                running.destroy();
                if (!running.waitFor(20, TimeUnit.SECONDS)) {
                    running.destroyForcibly();
                }
            }
            testbed("testbed-down", "down", "--name", name, "--state-dir", state.toString());
            System.out.println("standby pair testbed: removed " + name);
            return true;
        } catch (IOException | InterruptedException e) {
            System.out.println("standby pair testbed: removing " + name + " failed (run `latency testbed down --name " + name + "`): " + e);
            return false;
        }
    }

    /** Runs {@code testbed ARGS} to its end, successfully, with its log in the run's directory. */
    private void testbed(final String logName, final String... args) throws IOException, InterruptedException {
        try (ProcessKit kit = ProcessKit.fromThisClasspath(directory.resolve(logName))) {
            Files.createDirectories(kit.workDirectory());
            kit.launch(Component.TESTBED).name(logName).args(args).start().awaitSuccess(STEP_TIMEOUT);
        } catch (ReadinessException e) {
            throw new IOException("testbed " + args[0] + " of " + name + " failed: " + e.getMessage(), e);
        }
    }
}
