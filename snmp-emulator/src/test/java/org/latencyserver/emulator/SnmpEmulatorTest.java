package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.launch.ReadyFile;
import org.snmp4j.CommunityTarget;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/** The emulator launched from a context in this JVM, as {@link EmulatorMain} launches it. */
class SnmpEmulatorTest {
    private static final long SECOND_NANOS = 1_000_000_000L;

    @TempDir
    Path dir;

    private static Scenario scenario(String yaml) throws Exception {
        return ScenarioLoader.parse(yaml, "test.yaml");
    }

    private static EmulatorContext context(Scenario scenario) {
        return new EmulatorContext().scenario(scenario).access(new AccessConfig(Optional.of("secret"), Optional.empty()));
    }

    @Test
    void theAgentOnTheReportedPortAnswersAGetWithItsNodeNameAndCloseReleasesThePort() throws Exception {
        Scenario scenario = scenario("nodes: [ { name: ws1, port: 0 } ]\n"
                + "links: [ { name: atm, port: 0, if_index: 3, speed_mbps: 155 } ]\n"
                + "steps: [ { cpu: { ws1: 30 }, port: { atm: 50 } } ]\n");
        SnmpEmulator emulator = SnmpEmulator.launch(context(scenario));
        int port;
        try {
            Map<String, Integer> ports = emulator.agentUdpPorts();
            assertEquals(List.of("ws1", "atm"), List.copyOf(ports.keySet()));
            port = ports.get("ws1");
            assertEquals("ws1", getSysName(port, "secret"));
            assertEquals("atm", getSysName(ports.get("atm"), "secret"));
        } finally {
            emulator.close();
        }
        emulator.close();
        try (DatagramSocket again = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
            assertEquals(port, again.getLocalPort(), "closed, the emulator no longer holds its agent's port");
        }
    }

    @Test
    void withAListenerThreadPerAgentAsBeforeEveryAgentStillAnswersAndCloseReleasesItsPort() throws Exception {
        Scenario scenario = scenario("nodes: [ { name: ws1, port: 0 }, { name: ws2, port: 0 } ]\n"
                + "steps: [ { cpu: { ws1: 30, ws2: 40 } } ]\n");
        SnmpEmulator emulator = SnmpEmulator.launch(context(scenario).ioThreads(0));
        int port;
        try {
            Map<String, Integer> ports = emulator.agentUdpPorts();
            port = ports.get("ws2");
            assertEquals("ws1", getSysName(ports.get("ws1"), "secret"));
            assertEquals("ws2", getSysName(port, "secret"));
            assertEquals(0, Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("snmp-agents-"))
                    .count(), "no shared socket loop");
        } finally {
            emulator.close();
        }
        try (DatagramSocket again = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
            assertEquals(port, again.getLocalPort());
        }
    }

    @Test
    void aScenarioNeedingMoreSocketsThanTheProcessMayOpenIsRefusedBeforeAnyIsOpened() throws Exception {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(os instanceof com.sun.management.UnixOperatingSystemMXBean unix
                && unix.getMaxFileDescriptorCount() < 1_000_000, "a file limit this test can exceed");
        long agents = ((com.sun.management.UnixOperatingSystemMXBean) os).getMaxFileDescriptorCount() + 1;
        Scenario scenario = scenario("node_groups: [ { count: " + agents + ", name: \"ws{n}\", first_address: 127.60.0.1,"
                + " port: 16100 } ]\nsteps: [ { cpu: { \"ws*\": 5 } } ]\n");
        java.io.IOException e = assertThrows(java.io.IOException.class, () -> SnmpEmulator.launch(context(scenario)));
        assertTrue(e.getMessage().startsWith("the scenario has " + agents + " SNMP agents, one UDP socket each, but this process"
                + " may open only ") && e.getMessage().contains("`ulimit -n`"), e.getMessage());
        try (DatagramSocket first = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.60.0.1"), 16100))) {
            assertEquals(16100, first.getLocalPort(), "no agent was left holding its port");
        }
    }

    @Test
    void theReadyFileReportsTheAgentsStepsScenarioStatusFileAndWhenTheTimelineBegan() throws Exception {
        Path status = dir.resolve("status.json");
        Scenario scenario = scenario("nodes: [ { name: ws1, port: 0 }, { name: ws2, port: 0 } ]\n"
                + "steps: [ { cpu: { ws1: 5, ws2: 6 } }, { cpu: { ws1: 7 } }, { cpu: { ws2: 8 } } ]\n");
        long before = System.currentTimeMillis();
        try (SnmpEmulator emulator = SnmpEmulator.launch(context(scenario).statusFile(status))) {
            long after = System.currentTimeMillis();
            long timelineStart = Long.parseLong(emulator.readyFile().build().fact("timeline_start_epoch_millis"));
            assertTrue(timelineStart >= before && timelineStart <= after, before + " <= " + timelineStart + " <= " + after);
            ReadyFile ready = emulator.readyFile().build();
            assertEquals("snmp-emulator", ready.component());
            assertEquals("2", ready.fact("agents"));
            assertEquals("3", ready.fact("steps"));
            assertEquals("test.yaml", ready.fact("scenario"));
            assertEquals(status.toAbsolutePath(), ready.file("status"));
        }
    }

    @Test
    void theStatusFileFollowsTheStepsWithTheScenariosValuesAndARisingSequence() throws Exception {
        Path status = dir.resolve("status.json");
        Scenario scenario = scenario("step_seconds: 1\nloop: false\n"
                + "nodes: [ { name: ws1, port: 0 }, { name: ws2, port: 0 } ]\n"
                + "links: [ { name: atm, port: 0, if_index: 3, speed_mbps: 155 } ]\n"
                + "steps:\n"
                + "  - { cpu: { ws1: 10, ws2: 20 }, port: { atm: 30 } }\n"
                + "  - { cpu: { ws1: 80 } }\n"
                + "  - { port: { atm: 95 } }\n");
        AtomicLong nanos = new AtomicLong(5 * SECOND_NANOS);
        List<ScenarioStatus> told = new ArrayList<>();
        try (SnmpEmulator emulator = SnmpEmulator.launch(context(scenario).statusFile(status).nanoTime(nanos::get)
                .onStep(told::add))) {
            ScenarioStatus first = ScenarioStatus.read(status);
            assertEquals(new ScenarioStatus(ScenarioStatus.FORMAT, 1, 3, 1, 1, Map.of("ws1", 10, "ws2", 20), Map.of("atm", 30)), first);

            nanos.addAndGet(SECOND_NANOS);
            assertNotNull(emulator.pollStepsNow());
            assertEquals(new ScenarioStatus(ScenarioStatus.FORMAT, 2, 3, 1, 2, Map.of("ws1", 80, "ws2", 20), Map.of("atm", 30)),
                    ScenarioStatus.read(status));

            nanos.addAndGet(SECOND_NANOS / 2);
            assertNull(emulator.pollStepsNow(), "half-way through step 2 nothing changed");

            nanos.addAndGet(SECOND_NANOS / 2);
            emulator.pollStepsNow();
            assertEquals(new ScenarioStatus(ScenarioStatus.FORMAT, 3, 3, 1, 3, Map.of("ws1", 80, "ws2", 20), Map.of("atm", 95)),
                    ScenarioStatus.read(status));

            nanos.addAndGet(10 * SECOND_NANOS);
            assertNull(emulator.pollStepsNow(), "a scenario that does not loop holds its last step");
            assertEquals(3, ScenarioStatus.read(status).sequence());
            assertEquals(3, emulator.stepChanges());
        }
        assertEquals(List.of(1L, 2L, 3L), told.stream().map(ScenarioStatus::sequence).toList(), "the listener is told each change once");
    }

    @Test
    void aLoopingScenarioCountsItsPassesInTheStatus() throws Exception {
        Path status = dir.resolve("status.json");
        Scenario scenario = scenario("step_seconds: 1\nnodes: [ { name: ws1, port: 0 } ]\n"
                + "steps: [ { cpu: { ws1: 10 } }, { cpu: { ws1: 90 } } ]\n");
        AtomicLong nanos = new AtomicLong();
        try (SnmpEmulator emulator = SnmpEmulator.launch(context(scenario).statusFile(status).nanoTime(nanos::get))) {
            nanos.addAndGet(2 * SECOND_NANOS);
            ScenarioStatus secondPass = emulator.pollStepsNow();
            assertEquals(1, secondPass.step());
            assertEquals(2, secondPass.pass());
            assertEquals(2, secondPass.sequence());
            assertEquals(Map.of("ws1", 10), secondPass.cpuPercent());
            assertEquals(secondPass, ScenarioStatus.read(status));
        }
    }

    @Test
    void aContextWithoutAScenarioOrWithPushOnlyButNoServerIsRefusedNamingTheOption() throws Exception {
        IllegalArgumentException noScenario = assertThrows(IllegalArgumentException.class,
                () -> SnmpEmulator.launch(new EmulatorContext()));
        assertTrue(noScenario.getMessage().contains("--scenario"), noScenario.getMessage());

        Scenario scenario = scenario("nodes: [ { name: ws1, port: 0 } ]\nsteps: [ { cpu: { ws1: 5 } } ]\n");
        IllegalArgumentException noServer = assertThrows(IllegalArgumentException.class,
                () -> SnmpEmulator.launch(new EmulatorContext().scenario(scenario).pushOnly(true)));
        assertTrue(noServer.getMessage().contains("--push-to"), noServer.getMessage());

        IllegalArgumentException noAccess = assertThrows(IllegalArgumentException.class,
                () -> SnmpEmulator.launch(new EmulatorContext().scenario(scenario)));
        assertTrue(noAccess.getMessage().contains("community"), noAccess.getMessage());
    }

    @Test
    void aPortInUseFailsTheLaunchNamingTheAgentAndPortAndWritesNoStatus() throws Exception {
        try (DatagramSocket taken = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            Scenario scenario = scenario("nodes: [ { name: ws1, port: 0 }, { name: ws2, port: " + taken.getLocalPort() + " } ]\n"
                    + "steps: [ { cpu: { ws1: 5, ws2: 5 } } ]\n");
            java.io.IOException refused = assertThrows(java.io.IOException.class, () -> SnmpEmulator.launch(context(scenario).statusFile(dir.resolve("status.json"))));
            assertTrue(refused.getMessage().contains("'ws2'") && refused.getMessage().contains(":" + taken.getLocalPort()),
                    refused.getMessage());
        }
        assertTrue(Files.notExists(dir.resolve("status.json")));
    }

    private static String getSysName(int port, String community) throws Exception {
        try (Snmp snmp = new Snmp(new DefaultUdpTransportMapping())) {
            snmp.listen();
            CommunityTarget<Address> target = new CommunityTarget<>(new UdpAddress(InetAddress.getLoopbackAddress(), port),
                    new OctetString(community));
            target.setVersion(SnmpConstants.version2c);
            target.setTimeout(5_000);
            target.setRetries(2);
            PDU get = new PDU();
            get.setType(PDU.GET);
            get.add(new VariableBinding(EmulatedMib.SYS_NAME));
            ResponseEvent<Address> answer = snmp.send(get, target);
            assertNotNull(answer.getResponse(), "no answer from udp:127.0.0.1:" + port);
            return answer.getResponse().get(0).getVariable().toString();
        }
    }
}
