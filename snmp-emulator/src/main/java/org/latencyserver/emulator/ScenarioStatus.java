package org.latencyserver.emulator;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.latencyserver.launch.AtomicJsonFile;

/**
 * The emulator's status file ({@code --status-file PATH}): which scenario step is in force and the
 * values it gives each node and link, rewritten atomically (temporary file, then rename) at every
 * step change. Programs that follow the scenario (the demo drives real CPU load with it) read this
 * file instead of the emulator's output or the scenario itself.
 *
 * <p>Layout ({@code format} {@value #FORMAT}; keys are never renamed within a format, readers ignore
 * keys they do not know):
 * <pre>
 * {
 *   "format": "latency-emulator-status/1",
 *   "step": 3,                    // 1-based step in force
 *   "steps": 12,                  // steps in the scenario
 *   "pass": 1,                    // 1-based pass through a looping scenario
 *   "sequence": 27,               // step changes written so far, from 1: a reader sees each change once
 *   "cpu_percent":  { "lab1": 80, "lab2": 10 },   // every node's CPU utilisation in this step
 *   "port_percent": { "sw1/3": 40 }               // every link's port utilisation in this step
 * }
 * </pre>
 *
 * <p>Immutable; thread-safe.
 *
 * @param format      {@value #FORMAT}
 * @param step        the 1-based step in force
 * @param steps       how many steps the scenario has
 * @param pass        the 1-based pass through the scenario
 * @param sequence    how many step changes have been written, this one included
 * @param cpuPercent  per node, its CPU utilisation in percent
 * @param portPercent per link, its port utilisation in percent
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ScenarioStatus(
    @JsonProperty("format") String format,
    @JsonProperty("step") int step,
    @JsonProperty("steps") int steps,
    @JsonProperty("pass") int pass,
    @JsonProperty("sequence") long sequence,
    @JsonProperty("cpu_percent") Map<String, Integer> cpuPercent,
    @JsonProperty("port_percent") Map<String, Integer> portPercent) {

    /** The layout's name and version. */
    public static final String FORMAT = "latency-emulator-status/1";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Copies the maps (missing ones read as empty). */
    public ScenarioStatus {
        cpuPercent = cpuPercent == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(cpuPercent));
        portPercent = portPercent == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(portPercent));
    }

    /**
     * Writes the file atomically.
     *
     * @param file where
     * @throws IOException when it cannot be written
     */
    public void writeTo(final Path file) throws IOException {
        AtomicJsonFile.write(file, this, JSON);
    }

    /**
     * @param file a status file
     * @return its content
     * @throws IOException when it cannot be read, is not of this layout or of another format
     */
    public static ScenarioStatus read(final Path file) throws IOException {
        return AtomicJsonFile.read(file, ScenarioStatus.class, JSON, "an emulator status file", ScenarioStatus::format, FORMAT);
    }
}
