package org.latencyserver.agent.profiler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What a profile's provenance says about the machine it was measured on. */
final class MachineFacts {

    private MachineFacts() {
    }

    /** @return e.g. {@code "Intel Xeon ..., 2 cores; both workstations on this one machine, over loopback (no physical network)"} */
    static String hardware() {
        return thisHost() + "; both workstations on this one machine, over loopback (no physical network)";
    }

    /** @return this machine's CPU model and core count, e.g. {@code "Intel Xeon ..., 2 cores"} */
    static String thisHost() {
        String model = "unknown CPU";
        // The machine's cores, not this JVM's: the profiler has pinned itself to one by now.
        long cores = Runtime.getRuntime().availableProcessors();
        try {
            final List<String> cpuinfo = Files.readAllLines(Path.of("/proc/cpuinfo"));
            model = cpuinfo.stream().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse(model);
            cores = Math.max(1, cpuinfo.stream().filter(l -> l.startsWith("processor")).count());
        } catch (IOException e) {
            // keep "unknown CPU": provenance is descriptive, not load-bearing
        }
        return model + ", " + cores + " cores";
    }

    static String operatingSystem() {
        return System.getProperty("os.name") + " " + System.getProperty("os.version") + " (" + System.getProperty("os.arch") + ")";
    }
}
