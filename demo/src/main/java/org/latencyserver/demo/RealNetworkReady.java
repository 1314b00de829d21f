package org.latencyserver.demo;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.latencyserver.demo.DemoReady.Agent;
import org.latencyserver.demo.DemoReady.AgentKind;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.testbed.TestbedStatus;

/**
 * What {@code ./latency demo --real-network} started and where it is: the parts' ready files ({@link Started}), the web
 * ports carried to the operator's loopback ({@link WebPorts}), and the demo's own ready file made of them
 * ({@code docs/ready-files.md}, {@code demo}).
 *
 * <p>Stateless; called on the demo's main thread.
 */
final class RealNetworkReady {

    private RealNetworkReady() {
    }

    /** The long-running parts started on the testbed, with what their ready files say. */
    record Started(ReadyFile namingService, String naming, String serverName, Optional<Integer> metricsPort,
                           ReadyFile peerAgent, ReadyFile clientAgent, ReadyFile console, Path mirrorFile) {
    }

    /** The web ports carried to the operator's loopback. */
    record WebPorts(int consolePort, String consoleUrl, Optional<String> metricsUrl) {
    }

    /**
     * @param testbedStatusFile the testbed's status file
     * @param pinned            whether the agents are pinned to {@link RealNetworkDemo#CORE_BY_HOST}'s cores
     * @param services          the long-running children by role, oldest first
     * @param namespaceByRole   the network namespace each role runs in
     * @return the demo's ready file: where everything is, each part's pid and namespace
     */
    static ReadyFile of(final TestbedStatus status, final Path work, final Path scenarioFile, final Path scenarioStatus,
                        final Path testbedStatusFile, final Started started, final WebPorts web, final boolean load,
                        final boolean pinned, final Map<String, ChildProcess> services, final Map<String, String> namespaceByRole) {
        final ReadyFile.Builder ready = ReadyFile.of(Component.DEMO)
            .reference(DemoReady.NAMING, started.naming())
            .port(DemoReady.NAMING, started.namingService().port("naming"))
            .fact(DemoReady.SERVER_NAME, started.serverName())
            .url(DemoReady.CONSOLE, web.consoleUrl())
            .port(DemoReady.CONSOLE, web.consolePort())
            .file(DemoReady.MIRROR, started.mirrorFile())
            .file(DemoReady.WORK_DIR, work)
            .file(DemoReady.SCENARIO, scenarioFile)
            .file(DemoReady.SCENARIO_STATUS, scenarioStatus)
            .file(DemoReady.TESTBED_STATUS, testbedStatusFile)
            .fact(DemoReady.LOAD_DRIVEN, load)
            .fact(DemoReady.TESTBED, status.testbed())
            .fact(DemoReady.TESTBED_PREFIX, status.prefix());
        web.metricsUrl().ifPresent(url -> ready.url(DemoReady.METRICS, url));
        final String ws1 = RealNetworkConfig.host(status, RealNetworkConfig.CLIENT_HOST).name();
        final String ws2 = RealNetworkConfig.host(status, RealNetworkConfig.PEER_HOST).name();
        DemoReady.withAgent(ready, AgentKind.CLIENT, new Agent(started.clientAgent().fact("node"), started.clientAgent().fact("name"),
            pinned ? RealNetworkDemo.CORE_BY_HOST.get(ws1) : null));
        DemoReady.withAgent(ready, AgentKind.PEER, new Agent(started.peerAgent().fact("node"), started.peerAgent().fact("name"),
            pinned ? RealNetworkDemo.CORE_BY_HOST.get(ws2) : null));
        services.forEach((role, child) -> DemoReady.withPid(ready, role, child.pid()));
        namespaceByRole.forEach((role, ns) -> DemoReady.withNamespace(ready, role, ns));
        return ready.build();
    }
}
