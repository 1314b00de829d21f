package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmulatorMainTest {
    @TempDir
    Path dir;

    private record Run(int exitCode, String out, String err) {
    }

    private Run run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = EmulatorMain.execute(args, env, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private Path scenario(String text) throws Exception {
        Path file = dir.resolve("s.yaml");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void itRefusesToStartWithoutACommunityAndSaysWhichVariableToSet() throws Exception {
        Path file = scenario("nodes: [ { name: ws1, port: 0 } ]\nsteps: [ { cpu: { ws1: 5 } } ]\n");
        Run r = run(Map.of(), "--scenario", file.toString(), "--duration", "1");
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("LATSERV_COMMUNITY"), r.err());
    }

    @Test
    void aBadScenarioStopsItWithTheFileLineAndValue() throws Exception {
        Path file = scenario("nodes: [ { name: ws1, port: 0 } ]\nsteps: [ { cpu: { ws1: 500 } } ]\n");
        Run r = run(Map.of("LATSERV_COMMUNITY", "c"), "--scenario", file.toString());
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains(file + ":2:") && r.err().contains("was 500"), r.err());
    }

    @Test
    void itRunsForTheGivenDurationAndPrintsEachAgentsPort() throws Exception {
        Path file = scenario("step_seconds: 0.2\nnodes: [ { name: ws1, port: 0 } ]\n"
                + "steps: [ { cpu: { ws1: 5 } }, { cpu: { ws1: 60 } } ]\n");
        long start = System.nanoTime();
        Run r = run(Map.of("LATSERV_COMMUNITY", "c"), "--scenario", file.toString(), "--duration", "1");
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().matches("(?s).*agent ws1 udp:127\\.0\\.0\\.1:[1-9][0-9]*\n.*"), r.out());
        assertTrue(r.out().contains("cpu ws1=60%"), r.out());
        assertTrue(seconds >= 0.9, "stopped after " + seconds + " s");
    }

    @Test
    void whileItServesItsReadyFileNamesTheStatusFileAndAtAStopTheReadyFileIsGone() throws Exception {
        Path file = scenario("step_seconds: 60\nnodes: [ { name: ws1, port: 0 } ]\nsteps: [ { cpu: { ws1: 25 } } ]\n");
        Path ready = dir.resolve("emulator.ready.json");
        Path status = dir.resolve("emulator.status.json");
        java.util.concurrent.CompletableFuture<Run> run = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                run(Map.of("LATSERV_COMMUNITY", "c"), "--scenario", file.toString(), "--duration", "3",
                        "--ready-file", ready.toString(), "--status-file", status.toString()));

        org.latencyserver.launch.ReadyFile served = org.latencyserver.launch.ReadyFile.await(ready,
                java.time.Duration.ofSeconds(60), () -> !run.isDone(), () -> String.valueOf(run.getNow(null)));

        assertEquals("1", served.fact("agents"));
        assertEquals(status.toAbsolutePath(), served.file("status"));
        assertEquals(java.util.Map.of("ws1", 25), ScenarioStatus.read(status).cpuPercent());
        Run done = run.get();
        assertEquals(0, done.exitCode(), done.err());
        assertTrue(Files.notExists(ready), "a clean stop deletes the ready file");
    }

    @Test
    void aRunThatCannotStartStillDeletesTheReadyFileAnEarlierRunLeft() throws Exception {
        Path file = scenario("nodes: [ { name: ws1, port: 0 } ]\nsteps: [ { cpu: { ws1: 500 } } ]\n");
        Path ready = dir.resolve("emulator.ready.json");
        Files.writeString(ready, "{ \"format\": \"latency-ready/1\", \"component\": \"snmp-emulator\", \"pid\": 1 }");

        Run r = run(Map.of("LATSERV_COMMUNITY", "c"), "--scenario", file.toString(), "--ready-file", ready.toString());

        assertEquals(1, r.exitCode());
        assertTrue(Files.notExists(ready), "an earlier run's file would tell a waiting program this run serves");
    }

    @Test
    void aDryRunOfAGeneratedScenarioWritesTheServersNodesAndLinksAndSumsUpTheAgents() throws Exception {
        Path file = scenario("""
            node_groups: [ { count: 30, name: "ws{n}", first_address: 127.61.0.1, port: 16100 } ]
            link_groups: [ { count: 15, name: "sw{n}", first_address: 127.62.0.1, port: 16100, if_index: 2, speed_mbps: 100 } ]
            steps: [ { cpu: { "ws*": 10 }, port: { "sw*": 20 } } ]
            """);
        Path nodes = dir.resolve("server-nodes.yaml");
        Run r = run(Map.of("BENCH_COMMUNITY", "c"), "--scenario", file.toString(), "--community-env", "BENCH_COMMUNITY",
                "--dry-run", "--write-server-nodes", nodes.toString(), "--server-workstation-type", "TAC-3");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("30 workstations: ws1 udp:127.61.0.1:16100 ... ws30 udp:127.61.0.30:16100\n"), r.out());
        assertTrue(r.out().contains("15 switch ports: sw1 udp:127.62.0.1:16100 ... sw15 udp:127.62.0.15:16100\n"), r.out());
        assertTrue(r.out().contains("dry run: no agent started"), r.out());
        java.util.List<String> lines = Files.readAllLines(nodes);
        assertTrue(lines.contains("  - { name: ws30, node_id: 30, workstation_type: TAC-3, mib_source: snmp, snmp: { address:"
                + " \"udp:127.61.0.30/16100\", version: v2c, community_env: BENCH_COMMUNITY } }"), lines::toString);
        assertTrue(lines.contains("  - { name: sw15, mib_source: snmp, snmp: { address: \"udp:127.62.0.15/16100\", version: v2c,"
                + " community_env: BENCH_COMMUNITY, if_index: 2, speed_mbps: 100 } }"), lines::toString);
        assertEquals(30 + 15 + 2, lines.stream().filter(l -> l.startsWith("  - ")).count() + 2, lines::toString);
    }

    @Test
    void aDryRunCannotNameAnAgentWhosePortIsPickedAtStart() throws Exception {
        Path file = scenario("nodes: [ { name: ws1, port: 0 } ]\nsteps: [ { cpu: { ws1: 5 } } ]\n");
        Run r = run(Map.of("LATSERV_COMMUNITY", "c"), "--scenario", file.toString(), "--dry-run");
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("'ws1' has port 0 (any free port)"), r.err());
    }

    @Test
    void aStepLineSumsUpManyAgentsByPercent() {
        Map<String, Integer> cpu = new java.util.LinkedHashMap<>();
        for (int i = 1; i <= 30; i++) {
            cpu.put("ws" + i, i <= 9 ? 85 : 20);
        }
        String line = EmulatorMain.describe(new ScenarioStatus(ScenarioStatus.FORMAT, 2, 2, 1, 2, cpu, Map.of("atm", 95)));
        assertEquals("step 2/2 (pass 1): cpu 21×20% 9×85%  port atm=95%", line);
    }

    @Test
    void helpExitsZeroAndNamesTheOptions() {
        Run r = run(Map.of(), "--help");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().contains("--scenario") && r.out().contains("--push-to") && r.out().contains("--ready-file")
                && r.out().contains("--status-file"), r.out());
    }
}
