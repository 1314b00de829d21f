package org.latencyserver.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU levels a scenario gives one node at each step, carried forward as the emulator carries
 * them (a step that does not name the node keeps its previous level).
 */
final class ScenarioLoad {

    private ScenarioLoad() {
    }

    /**
     * @param scenario the emulator's scenario file
     * @param nodes    the nodes whose levels are wanted
     * @return per step (0-based), node name to CPU percent
     * @throws IOException when the file cannot be read or parsed
     */
    static List<Map<String, Integer>> cpuPercentPerStep(final Path scenario, final List<String> nodes) throws IOException {
        final JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(scenario.toFile());
        final List<Map<String, Integer>> steps = new ArrayList<>();
        final Map<String, Integer> current = new HashMap<>();
        for (final JsonNode step : root.path("steps")) {
            for (final String node : nodes) {
                final JsonNode value = step.path("cpu").path(node);
                if (value.isNumber()) {
                    current.put(node, value.asInt());
                }
            }
            steps.add(Map.copyOf(current));
        }
        if (steps.isEmpty()) {
            throw new IOException(scenario + ": no steps");
        }
        return steps;
    }
}
