package org.latencyserver.emulator;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Notices when the scenario's step changes and tells whoever follows it: it rewrites the status file
 * ({@link ScenarioStatus}) and hands the new status to a listener (the command prints a line for
 * people). Polled by {@link SnmpEmulator} every {@value SnmpEmulator#STEP_POLL_MILLIS} ms.
 *
 * <p>Thread-safe: {@link #poll()} is synchronized, so the poller and a test may both call it.
 */
final class StepFollower {
    private final Scenario scenario;
    private final LongSupplier elapsedMicros;
    private final Path statusFile;
    private final Consumer<ScenarioStatus> listener;
    /** The 0-based step and pass last reported; -1 before the first. Guarded by this. */
    private int lastStep = -1;
    private long lastPass = -1;
    /** Step changes reported so far. Guarded by this. */
    private long sequence;

    /**
     * @param scenario      the scenario followed
     * @param elapsedMicros microseconds since the emulator started
     * @param statusFile    the status file to rewrite, or null
     * @param listener      told each new status, on the polling thread
     */
    StepFollower(Scenario scenario, LongSupplier elapsedMicros, Path statusFile, Consumer<ScenarioStatus> listener) {
        this.scenario = scenario;
        this.elapsedMicros = elapsedMicros;
        this.statusFile = statusFile;
        this.listener = listener;
    }

    /**
     * Reports the step in force if it is not the one last reported (the first call always reports).
     *
     * @return the new status, or null when the step is unchanged
     * @throws IOException when the status file cannot be written (the step counts as reported all the same)
     */
    synchronized ScenarioStatus poll() throws IOException {
        long now = elapsedMicros.getAsLong();
        int step = scenario.stepAt(now);
        long pass = scenario.loop() ? now / scenario.cycleMicros() : 0;
        // A new pass on the same step is a change when polls missed the steps between (a paused
        // machine); in a one-step scenario every pass is the same step and changes nothing.
        if (step == lastStep && (pass == lastPass || scenario.stepCount() == 1)) {
            return null;
        }
        lastStep = step;
        lastPass = pass;
        sequence++;
        ScenarioStatus status = statusAt(now, step, pass);
        listener.accept(status);
        if (statusFile != null) {
            status.writeTo(statusFile);
        }
        return status;
    }

    /** @return how many step changes have been reported */
    synchronized long sequence() {
        return sequence;
    }

    private ScenarioStatus statusAt(long nowMicros, int step, long pass) {
        Map<String, Integer> cpu = new LinkedHashMap<>();
        scenario.nodes().forEach(n -> cpu.put(n.name(), scenario.percentAt(n.name(), nowMicros)));
        Map<String, Integer> port = new LinkedHashMap<>();
        scenario.links().forEach(l -> port.put(l.name(), scenario.percentAt(l.name(), nowMicros)));
        return new ScenarioStatus(ScenarioStatus.FORMAT, step + 1, scenario.stepCount(), (int) Math.min(Integer.MAX_VALUE, pass + 1),
                sequence, cpu, port);
    }
}
