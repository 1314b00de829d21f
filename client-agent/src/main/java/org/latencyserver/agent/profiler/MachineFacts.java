package org.latencyserver.agent.profiler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a profile's provenance says about the machine it was measured on. */
final class MachineFacts {

    private MachineFacts() {
    }

    static String hardware() {
        String model = "unknown CPU";
        try {
            model = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse(model);
        } catch (IOException e) {
            // keep "unknown CPU": provenance is descriptive, not load-bearing
        }
        return model + ", " + Runtime.getRuntime().availableProcessors() + " cores; both workstations on this one machine, "
            + "over loopback (no physical network)";
    }

    static String operatingSystem() {
        return System.getProperty("os.name") + " " + System.getProperty("os.version") + " (" + System.getProperty("os.arch") + ")";
    }
}
