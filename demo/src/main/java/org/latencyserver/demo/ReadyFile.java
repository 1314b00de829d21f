package org.latencyserver.demo;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --ready-file}: what another program needs to use a running demo, as JSON, so that it never
 * has to read the demo's banner or logs. Written once everything is running, atomically (a
 * temporary file in the same directory, then a rename), so a reader polling for the file sees it
 * whole or not at all; deleted when the demo stops, so that it exists exactly while the demo runs.
 *
 * <p>Layout ({@code format} {@value #FORMAT}; keys are never renamed within a format):
 * <pre>
 * {
 *   "format": "latency-demo-ready/1",
 *   "naming_service": "corbaloc::127.0.0.1:40711/NameService",
 *   "server_name": "LatencyServer",            // the server's name in the naming service
 *   "console_url": "http://127.0.0.1:8470/",
 *   "metrics_url": "http://127.0.0.1:39121/metrics",   // null when the server has no endpoint
 *   "client_agents": [ { "node": "lab1", "name": "demo-agent-lab1", "core": 0 } ],
 *   "peer_agents":   [ { "node": "lab2", "name": "peers/lab2", "core": 1 } ],  // name: in the naming service
 *   "pids": { "naming-service": 1, "emulator": 2, "server": 3, "peer-agent": 4, "client-agent": 5, "console": 6 },
 *   "load_driven": true,                        // real CPU load follows the scenario on the pinned cores
 *   "scenario": "/…/examples/demo/demo-scenario.yaml",
 *   "work_dir": "/…/.latency/demo",
 *   "mirror_file": "/…/.latency/demo/estimates.mirror"   // this host's estimate mirror (docs/mirror-layout.md)
 * }
 * </pre>
 * {@code core} is null when the agents are not pinned (no taskset, or one core).
 *
 * @param format       {@value #FORMAT}
 * @param namingService the naming service's corbaloc
 * @param serverName   the server's name in the naming service
 * @param consoleUrl   the status console's web page
 * @param metricsUrl   the server's Prometheus endpoint, or null
 * @param clientAgents the client agents
 * @param peerAgents   the peer agents
 * @param pids         process id by role
 * @param loadDriven   whether stress-ng load follows the scenario on the agents' cores
 * @param scenario     the scenario the emulator walks
 * @param workDir      logs, IORs and state of this run
 * @param mirrorFile   the host-local estimate mirror the demo keeps (docs/mirror-layout.md)
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReadyFile(
    @JsonProperty("format") String format,
    @JsonProperty("naming_service") String namingService,
    @JsonProperty("server_name") String serverName,
    @JsonProperty("console_url") String consoleUrl,
    @JsonProperty("metrics_url") String metricsUrl,
    @JsonProperty("client_agents") List<Agent> clientAgents,
    @JsonProperty("peer_agents") List<Agent> peerAgents,
    @JsonProperty("pids") Map<String, Long> pids,
    @JsonProperty("load_driven") boolean loadDriven,
    @JsonProperty("scenario") String scenario,
    @JsonProperty("work_dir") String workDir,
    @JsonProperty("mirror_file") String mirrorFile) {

    /** The layout's name and version. */
    public static final String FORMAT = "latency-demo-ready/1";

    /**
     * One agent of the demo.
     *
     * @param node the node it stands for (a node of the server's configuration)
     * @param name its name: the client agent's own, or the peer agent's in the naming service
     * @param core the core it is pinned to, or null
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Agent(@JsonProperty("node") String node, @JsonProperty("name") String name, @JsonProperty("core") Integer core) {
    }

    /**
     * Writes the file atomically.
     *
     * @param file where
     * @throws IOException when it cannot be written
     */
    public void writeTo(final Path file) throws IOException {
        final Path absolute = file.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
        final Path temporary = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".tmp");
        try {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(temporary.toFile(), this);
            Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /**
     * Reads a ready file (keys a newer demo adds are ignored).
     *
     * @param file the ready file
     * @return its content
     * @throws IOException when it cannot be read, or is of another format
     */
    public static ReadyFile read(final Path file) throws IOException {
        final ReadyFile ready = new ObjectMapper().readValue(file.toFile(), ReadyFile.class);
        if (!FORMAT.equals(ready.format())) {
            throw new IOException(file + ": format '" + ready.format() + "', expected '" + FORMAT + "'");
        }
        return ready;
    }

    /** @return the client agent of a node, if the demo runs one */
    public Optional<Agent> clientAgentOf(final String node) {
        return clientAgents.stream().filter(agent -> agent.node().equals(node)).findFirst();
    }

    /** @return the peer agent of a node, if the demo runs one */
    public Optional<Agent> peerAgentOf(final String node) {
        return peerAgents.stream().filter(agent -> agent.node().equals(node)).findFirst();
    }

    /** @return the pid of a role's process, if the demo started one */
    public Optional<Long> pidOf(final String role) {
        return Optional.ofNullable(pids.get(role));
    }
}
