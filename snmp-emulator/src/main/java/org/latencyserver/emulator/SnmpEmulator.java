package org.latencyserver.emulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.RunningComponent;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.launch.agent.PeriodicAgent;
import org.latencyserver.launch.agent.PeriodicDeadline;

/**
 * A running SNMP emulator: the scenario's agents, its optional push to a server and the thread that
 * follows its steps (status file, {@link EmulatorContext#onStep(java.util.function.Consumer) onStep}).
 * Start one with {@link #launch(EmulatorContext)}, in a test's JVM as in {@link EmulatorMain}'s; stop it
 * with {@link #close()}.
 *
 * <p>Thread-safe: the accessors and {@link #close()} may be called from any thread.
 */
public final class SnmpEmulator extends RunningComponent {
    /** How often the step thread looks for a step change, in milliseconds. */
    static final long STEP_POLL_MILLIS = 100;


    private final EmulatorContext context;
    private final Emulator agents;
    private final StepFollower steps;
    /** Polls the scenario's steps every {@link #STEP_POLL_MILLIS} ms; null until started. */
    private AgentRunner stepThread;
    /** The wall-clock time of the timeline's start (elapsed 0), epoch ms: the scenario's steps begin at fixed offsets from it. */
    private long timelineStartEpochMillis;
    private CorbaMibUpdateTarget pushTarget;
    private PushSender pusher;

    private SnmpEmulator(EmulatorContext context, Emulator agents, StepFollower steps) {
        this.context = context;
        this.agents = agents;
        this.steps = steps;
    }

    /**
     * Validates the context, binds every agent's port, starts the push and writes the first status
     * (step 1) before it returns.
     *
     * @param context what to run
     * @return the running emulator
     * @throws IllegalArgumentException when the context is not valid (naming the setting)
     * @throws IOException naming the node or link and the port when an agent cannot be bound, or
     *         the status file when it cannot be written; whatever had started is stopped again
     */
    public static SnmpEmulator launch(EmulatorContext context) throws IOException {
        context.validate();
        Scenario scenario = context.scenario();
        LongSupplier nanoTime = context.nanoTime();
        long startNanos = nanoTime.getAsLong();
        long startEpochMillis = System.currentTimeMillis();
        LongSupplier elapsedMicros = () -> (nanoTime.getAsLong() - startNanos) / 1_000;
        SnmpEmulator emulator = new SnmpEmulator(context,
                new Emulator(scenario, context.access(), context.bindAddress(), elapsedMicros, context.ioThreads()),
                new StepFollower(scenario, elapsedMicros, context.statusFile(), context.onStep()));
        emulator.timelineStartEpochMillis = startEpochMillis;
        return startedOrClosed(emulator, started -> started.start(elapsedMicros));
    }

    private synchronized void start(LongSupplier elapsedMicros) throws IOException {
        if (!context.pushOnly()) {
            agents.start();
        }
        if (context.pushTo() != null) {
            pushTarget = new CorbaMibUpdateTarget(context.pushTo(), context.pushTls());
            pusher = new PushSender(context.scenario(), pushTarget, elapsedMicros);
            pusher.start();
        }
        steps.poll();
        final long stepPollNanos = TimeUnit.MILLISECONDS.toNanos(STEP_POLL_MILLIS);
        // The close waits for a poll under way: it finishes its status file before the agents go.
        stepThread = new AgentRunner(PeriodicAgent.named("scenario-steps")
                .duty(PeriodicDeadline.Kind.FIXED_RATE, stepPollNanos, stepPollNanos, this::pollSteps).build(),
                NoIdleStrategy.INSTANCE, new DistinctErrorLog("scenario-steps"), System::nanoTime,
                Duration.ofMillis(STEP_POLL_MILLIS * 10));
        stepThread.start();
    }

    /**
     * One poll of the steps. A status file that cannot be written is the step agent's error (counted,
     * logged once per distinct error); the agents keep serving, and a follower of the status file sees
     * it stop changing.
     */
    private void pollSteps() {
        try {
            steps.poll();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the status file " + context.statusFile(), e);
        }
    }

    /**
     * Looks for a step change now instead of at the next poll (a test that moves its clock calls this).
     *
     * @return the new status, or null when the step is unchanged
     * @throws IOException when the status file cannot be written
     */
    ScenarioStatus pollStepsNow() throws IOException {
        return steps.poll();
    }

    /** @return the scenario it follows */
    public Scenario scenario() {
        return context.scenario();
    }

    /** @return each agent's name and bound UDP port, nodes first, in scenario order; empty when push-only */
    public synchronized Map<String, Integer> agentUdpPorts() {
        Map<String, Integer> ports = new LinkedHashMap<>();
        agents.endpoints().forEach(e -> ports.put(e.name(), e.boundUdpPort()));
        return ports;
    }

    /** @return each agent's name and bound address and UDP port, nodes first, in scenario order; empty when push-only */
    public synchronized Map<String, InetSocketAddress> agentAddresses() {
        Map<String, InetSocketAddress> addresses = new LinkedHashMap<>();
        agents.endpoints().forEach(e -> addresses.put(e.name(), new InetSocketAddress(e.bindAddress(), e.boundUdpPort())));
        return addresses;
    }

    /** @return how many step changes it has reported (1 once launched) */
    public long stepChanges() {
        return steps.sequence();
    }

    /**
     * @return its ready file's content as {@code docs/ready-files.md} lists it: the status file, and
     *         the facts {@code agents}, {@code steps}, {@code scenario} and {@code timeline_start_epoch_millis}
     */
    @Override
    public synchronized ReadyFile.Builder readyFile() {
        ReadyFile.Builder ready = ReadyFile.of(Component.SNMP_EMULATOR)
                .fact("agents", agents.endpoints().size())
                .fact("steps", context.scenario().stepCount())
                .fact("scenario", context.scenario().source())
                .fact("timeline_start_epoch_millis", timelineStartEpochMillis);
        if (context.statusFile() != null) {
            ready.file("status", context.statusFile());
        }
        return ready;
    }

    /** Stops the step thread, the push and the agents. */
    @Override
    protected void stop() {
        final AgentRunner started;
        synchronized (this) {
            started = stepThread;
        }
        if (started != null) {
            started.close(); // a poll under way finishes its status file before the agents go
        }
        if (pusher != null) {
            pusher.close();
        }
        if (pushTarget != null) {
            pushTarget.close();
        }
        agents.close();
    }
}
