package org.latencyserver.demo;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.latencyserver.launch.Installation;

/**
 * What {@code ./latency demo} prints for people once it runs: where to look and what to look at.
 * It says what the demo's ready file says (it is printed from it), but no program reads it: they
 * read the ready file.
 *
 * <p>Stateless; thread-safe.
 */
final class DemoBanner {

    /** How a person runs a component here: {@code ./latency} in a checkout, {@code bin/latency} of a distribution. */
    private static final String LAUNCHER = Installation.current().launcherCommand();

    private DemoBanner() {
    }

    /**
     * @param out             where
     * @param ready           the running demo
     * @param prometheusLines the lines about Prometheus (the one started, or how to start one)
     * @param loadOffReason   why real CPU load is off, or null when it follows the scenario
     * @param durationSeconds {@code --duration}, or null
     */
    static void print(final PrintStream out, final DemoReady ready, final List<String> prometheusLines, final String loadOffReason,
                      final Long durationSeconds) {
        final String naming = ready.naming();
        final String serverName = ready.serverName();
        final String peerName = ready.peerAgentOf("lab2").map(DemoReady.Agent::name).orElse("?");
        final Path mirrorFile = ready.mirrorFile();
        out.println();
        out.println("  Latency Server demo is running.");
        out.println();
        out.println("  Console:        " + ready.consoleUrl());
        out.println("  Naming service: " + naming + "  (the server is '" + serverName + "', the peer agent '" + peerName + "')");
        ready.metricsUrl().ifPresent(url -> out.println("  Metrics:        " + url));
        prometheusLines.forEach(out::println);
        out.println("  Terminal view:  " + LAUNCHER + " console --naming " + naming + " --server " + serverName + " --watch");
        out.println("  Mirror file:    " + mirrorFile + "  (every estimate, read without a call)");
        out.println("                  " + LAUNCHER + " mirror-read --file " + mirrorFile + " --watch");
        out.println("                  Java: EstimateMirror.open(path).read(indexRef, record); C: latency-mirror/src/main/c/latency_mirror.h");
        final Path certs = ready.workDir().resolve("certs");
        out.println("  Writes need TLS and a role (plain IIOP reads only). As the planner, for example:");
        out.println("    LATENCY_TLS_PASSWORD=$(cat " + certs.resolve("password") + ") " + LAUNCHER + " profile load F --naming " + naming
            + " --server " + serverName + " --tls-keystore " + certs.resolve("planner-demo-planner.p12") + " --tls-truststore "
            + certs.resolve("trust.p12"));
        out.println();
        out.println("  What to look at: every 12 s the emulated workstations change load (examples/demo/demo-scenario.yaml).");
        out.println("  - connection 1 (QoS 1) takes its average from the thesis's Appendix A for each CPU state pair;");
        out.println("  - connection 2 (QoS 2) its 96 % bound from the histograms measured on this kind of machine;");
        out.println("  - connections 3 and 4 (QoS 3, 4): at each change they serve what they know of the new state at once");
        out.println("    (its last measurement, labelled 'remembered', or the profile, 'profile fallback') and, once the state");
        out.println("    has held a moment, the client agent measures 1000 round trips to the peer agent;");
        out.println("  - connections 2-4 are probed a few times a second; what they serve is corrected so that it holds for the");
        out.println("    round trips that follow (the thesis's value beside it), and calibration shows per state how well it held;");
        out.println("  - at step 7 the switch port goes above 90 %: the port state turns LOADED and QoS 1 adds the queue model;");
        out.println("  - click a row for its latency histogram, estimate timeline and calibration per load state.");
        if (loadOffReason == null) {
            out.println("  Real load follows the scenario: lab1 (client agent) on core 0, lab2 (peer agent) on core 1.");
        } else {
            out.println("  Real CPU load is off (" + loadOffReason + "); the SNMP values still follow the scenario.");
        }
        out.println();
        out.println("  Stop with Ctrl-C" + (durationSeconds == null ? "." : " (or wait " + durationSeconds + " s)."));
        out.println();
        out.flush();
    }
}
