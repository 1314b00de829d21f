package org.latencyserver.benchmarks.accuracy;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The running demo as its {@code --ready-file} describes it (layout {@code latency-demo-ready/1},
 * documented in the demo's {@code ReadyFile}). Unknown keys are ignored, so the demo may add some.
 *
 * @param format        the layout's name and version
 * @param namingService the naming service's corbaloc
 * @param serverName    the server's name in the naming service
 * @param consoleUrl    the status console's page
 * @param metricsUrl    the server's Prometheus endpoint, or null
 * @param clientAgents  the client agents
 * @param peerAgents    the peer agents (name: in the naming service)
 * @param pids          process id by role (naming-service, emulator, server, peer-agent, client-agent, console)
 * @param loadDriven    whether real CPU load follows the scenario on the agents' cores
 * @param scenario      the scenario the emulator walks
 * @param workDir       the demo's logs and state
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record DemoReady(
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
    @JsonProperty("work_dir") String workDir) {

    /** The only layout this reader knows. */
    public static final String FORMAT = "latency-demo-ready/1";

    /**
     * One agent of the demo.
     *
     * @param node the node it stands for
     * @param name its name (a peer agent's: in the naming service)
     * @param core the core it is pinned to, or null
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Agent(@JsonProperty("node") String node, @JsonProperty("name") String name, @JsonProperty("core") Integer core) {
    }

    /**
     * @param file the ready file
     * @return its content
     * @throws IOException when it cannot be read, or is of another format
     */
    public static DemoReady read(final Path file) throws IOException {
        final DemoReady ready = new ObjectMapper().readValue(file.toFile(), DemoReady.class);
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
