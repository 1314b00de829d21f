package org.latencyserver.systemtests.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.orb.References;
import org.latencyserver.systemtests.kit.HeadlessChromium;
import org.latencyserver.systemtests.kit.ReadyProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.systemtests.kit.Testbed;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.latencyserver.testkit.config.ServerYaml.Node;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import org.omg.CosNaming.NamingContextExtHelper;
import org.omg.CosNaming.NamingContextPackage.NotFound;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three partitions of one deployment, each its own server process, in a
 * CosNaming service: JacORB's ({@link PartitionsInJacorbNamingServiceTest}) and omniORB's omniNames
 * ({@link PartitionsInOmniNamesTest}: another ORB's, so nothing here can be JacORB-private).
 * Partition pK owns client workstation xK (peer yK) and the index_refs K01-K02: K01 at QoS 1 on the
 * thesis profile, K02 at QoS 3.
 *
 * <p>Every wait is for a ready file, or for a condition asked of the processes over CORBA or HTTP
 * with a generous limit; none is timed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ResourceLock(PartitionedDeploymentChecks.DIRECTORY) // the static directory is one for both subclasses: one at a time
abstract class PartitionedDeploymentChecks {

    /** The lock of the static {@link #directory}, held by each subclass while it runs (inherited). */
    static final String DIRECTORY = "org.latencyserver.systemtests.server.PartitionedDeploymentChecks";

    private static final Duration WITHIN = Duration.ofSeconds(120);
    /** The thesis's Appendix A, TAC-4 to TAC-4, 256 B, both CPUs LOW: QoS 1's average, ms. */
    private static final float THESIS_LOW_LOW_256_MILLIS = 1.365f;

    @TempDir
    static Path directory;
    private SystemUnderTest system;
    private ORB orb;
    private String naming;
    private final Map<String, ReadyProcess> servers = new TreeMap<>();

    @BeforeAll
    void startThreePartitions() throws Exception {
        system = SystemUnderTest.in(directory);
        orb = system.orb();
        naming = startNamingService(system, orb);
        for (final int k : new int[] {1, 2, 3}) {
            final ReadyProcess server = startServer("p" + k, "p" + k);
            assertEquals("LatencyServer/p" + k, server.ready().fact("name"), "registered under server.name/partition");
            assertEquals("p" + k, server.ready().fact("partition"));
            servers.put("p" + k, server);
        }
    }

    /** @return the corbaloc of a naming service started in the kit, answering */
    abstract String startNamingService(SystemUnderTest kit, ORB clientOrb) throws Exception;

    @AfterAll
    void stopEverything() {
        if (system != null) {
            system.close();
        }
    }

    @Test
    @Order(1)
    void anApplicationFindsItsPartitionsServerByItsNodeAndGetsItsEstimate() throws Exception {
        for (final int k : new int[] {1, 2, 3}) {
            final Latserv own = serverOf("x" + k);
            assertTrue(own._is_equivalent(orb.string_to_object(servers.get("p" + k).ready().reference("server"))),
                "LatencyServer/by-client/x" + k + " is partition p" + k + "'s server");
            final short qos1 = (short) (k * 100 + 1);
            own.PutMibUpdates(new IdlMibUpdates(qos1, (short) 5, (short) 5, (short) 5), qos1);
            final IdlStatusToClient status = own.RequestStatus(qos1);
            assertEquals(1, status.server_acknowledges_client, "connection " + qos1 + " is partition p" + k + "'s");
            assertEquals(THESIS_LOW_LOW_256_MILLIS, status.latency_estimate, "thesis Appendix A, TAC-4 256 B LOW/LOW");
            // Another partition's connection is unknown here: each server holds its own partition only.
            final short elsewhere = (short) ((k % 3 + 1) * 100 + 1);
            assertEquals(0, own.RequestStatus(elsewhere).server_acknowledges_client,
                "connection " + elsewhere + " is not partition p" + k + "'s");
        }
        final References.ReferenceException noNode = assertThrows(References.ReferenceException.class,
            () -> References.resolveServer(orb, "LatencyServer", naming, List.of()));
        assertTrue(noNode.getMessage().contains("--node NODE"), noNode.getMessage());
        final References.ReferenceException twoPartitions = assertThrows(References.ReferenceException.class,
            () -> References.resolveServer(orb, "LatencyServer", naming, List.of("x1", "x2")));
        assertTrue(twoPartitions.getMessage().contains("'x1' and 'x2' belong to different partitions"), twoPartitions.getMessage());
        assertTrue(LatservHelper.narrow(References.resolveServer(orb, "LatencyServer/p2", naming, List.of("x1")))
            ._is_equivalent(serverOf("x2")), "a partition named directly is that partition, whatever the node");
        final ReadyProcess mirror = system.start(system.launch(Component.MIRROR).name("mirror-x3")
            .args("--naming", naming, "--node", "x3", "--file", directory.resolve("x3.mirror").toString()));
        assertEquals("2", mirror.ready().fact("connections"), "the mirror of node x3 follows partition p3's two connections");
        system.stop(mirror.child());
    }

    @Test
    @Order(2)
    void aClientAgentFoundByItsNodeMeasuresItsPartitionsConnectionsOnly() throws Exception {
        system.start(system.launch(Component.PEER_AGENT).name("peer-y1").args("--name", "y1", "--naming", naming,
            "--ior-file", directory.resolve("peer-y1.ior").toString()));
        final ReadyProcess agent = system.start(system.launch(Component.CLIENT_AGENT).name("agent-x1")
            .args("--naming", naming, "--node", "x1", "--poll-millis", "500", "--jit-warmup-seconds", "0", "--no-probe"));
        assertEquals("1", agent.ready().fact("connections"), "node x1 has one QoS 3 connection, in partition p1 (102)\n"
            + agent.child().logEnd());
        final Latserv p1 = serverOf("x1");
        final Latserv p2 = serverOf("x2");
        // A first load state for both QoS 3 connections: each server asks for a measurement.
        p1.PutMibUpdates(new IdlMibUpdates((short) 102, (short) 5, (short) 5, (short) 5), (short) 102);
        p2.PutMibUpdates(new IdlMibUpdates((short) 202, (short) 5, (short) 5, (short) 5), (short) 202);
        awaitTrue(() -> p1.RequestStatus((short) 102).update_required_flag == 0,
            "the agent of x1 measures connection 102 of partition p1\n" + agent.child().logEnd());
        assertTrue(p1.RequestStatus((short) 102).latency_estimate > 0, "a measured average");
        assertEquals(1, p2.RequestStatus((short) 202).update_required_flag,
            "partition p2's connection 202 is still waiting: the agent of x1 never measures another partition's");
        assertTrue(Stream.of(LatencyServiceHelper.narrow(p2).pending_measurements()).anyMatch(r -> r.index_ref == 202),
            "p2 still has its request open");
    }

    @Test
    @Order(3)
    void theConsoleListsEveryPartitionInOnePage() throws Exception {
        final ChildProcess once = system.launchOneShot("console-once", Component.CONSOLE)
            .args("--naming", naming, "--all-partitions", "--once").start();
        assertEquals(0, once.awaitExit(WITHIN), once.log());
        final String printed = once.log();
        assertTrue(printed.contains("Partitions of LatencyServer in " + naming + ": 3, all up"), printed);
        for (final String ref : List.of("p1 (LatencyServer/p1)", "p2 (LatencyServer/p2)", "p3 (LatencyServer/p3)")) {
            assertTrue(printed.contains("[up]   Latency Server partition " + ref), ref + " has its section\n" + printed);
        }
        assertTrue(printed.contains("x2 -> y2"), "p2's connections are listed\n" + printed);

        final String web = startWebConsole();
        assertEquals(List.of("p1", "p2", "p3"), partitionNames(webSnapshot(web)), "listed when the page is ready");
        awaitTrue(() -> allUp(webSnapshot(web)), "the web page shows every partition up");
        final JsonNode page = webSnapshot(web);
        assertEquals(0, page.get("down").size(), page.toString());
        assertEquals(201, page.get("partitions").get(1).get("table").get("connections").get(0).get("indexRef").asInt());
    }

    @Test
    @Order(4)
    void aPartitionWhoseIndexRangeOverlapsAnothersIsRefusedAtStart() throws Exception {
        final Path config = write("p4", "p4", 201, "x4"); // 202-203 overlaps p2's 201-202 at 202
        final ChildProcess refused = system.serverLaunch("p4", config).args("--naming", naming, "--metrics-port", "-1").start();
        assertNotEquals(0, refused.awaitExit(WITHIN), "a partition overlapping another may not start\n" + refused.log());
        assertTrue(refused.log().contains("index_ref 202 of partition 'p4' (its range 202-203) overlaps partition 'p2' (its range"
            + " 201-202"), "the error names both partitions and the overlap\n" + refused.log());
        assertThrows(NotFound.class, () -> NamingContextExtHelper.narrow(orb.string_to_object(naming)).resolve_str("LatencyServer/p4"),
            "nothing of the refused partition is bound");

        final ChildProcess taken = system.serverLaunch("p5", write("p5", "p5", 500, "x1"))
            .args("--naming", naming, "--metrics-port", "-1").start();
        assertNotEquals(0, taken.awaitExit(WITHIN), "a client node of a running partition may not be claimed\n" + taken.log());
        assertTrue(taken.log().contains("client node 'x1' of partition 'p5' is bound as LatencyServer/by-client/x1 to partition"
            + " 'p1', which is running"), taken.log());
    }

    @Test
    @Order(5)
    void aKilledPartitionLeavesTheOthersAnsweringAndReturnsWithItsState() throws Exception {
        final String web = startWebConsole();
        final ChromeDriver browser = HeadlessChromium.start(directory);
        try {
            browser.get(web);
            // The page re-renders a section at each push: an element found may be replaced before it is read.
            final WebDriverWait page = new WebDriverWait(browser, WITHIN);
            page.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
            page.until(b -> b.findElements(By.cssSelector("section.up")).size() == 3);
            killAndReturn(web, browser, page);
        } finally {
            browser.quit();
        }
    }

    private void killAndReturn(final String web, final ChromeDriver browser, final WebDriverWait page) throws Exception {
        final Latserv p3 = serverOf("x3");
        p3.PutMibUpdates(new IdlMibUpdates((short) 301, (short) 50, (short) 20, (short) 5), (short) 301); // MEDIUM/LOW
        final float before = p3.RequestStatus((short) 301).latency_estimate;
        assertNotEquals(THESIS_LOW_LOW_256_MILLIS, before, "a state of its own, to find again after the restart");

        servers.get("p3").child().kill(); // kill -9: no last save, no unbinding

        for (final String node : List.of("x1", "x2")) {
            assertEquals(THESIS_LOW_LOW_256_MILLIS, serverOf(node).RequestStatus((short) (node.equals("x1") ? 101 : 201))
                .latency_estimate, "the clients of " + node + "'s partition are unaffected");
        }
        assertThrows(SystemException.class, () -> serverOf("x3").RequestStatus((short) 301), "p3's connections go unanswered");
        awaitTrue(() -> List.of("p3").equals(textList(webSnapshot(web).get("down"))), "the web page says p3 is down");
        // p3 down and p1, p2 up on the page (a wait, not a snapshot: a busy machine may delay a refresh)
        page.until(b -> b.findElements(By.cssSelector("section#partition-p3.down")).size() == 1
            && b.findElements(By.cssSelector("section#partition-p1.up, section#partition-p2.up")).size() == 2);
        page.withMessage("the page's header names p3 down, and so does p3's section")
            .until(b -> b.findElement(By.id("summary")).getText().contains("DOWN: p3")
                && b.findElement(By.cssSelector("section#partition-p3 h2")).getText().contains("DOWN"));
        final ChildProcess once = system.launchOneShot("console-once-down", Component.CONSOLE)
            .args("--naming", naming, "--all-partitions", "--once").start();
        assertEquals(1, once.awaitExit(WITHIN), "--once exits 1 while a partition is down\n" + once.log());
        assertTrue(once.log().contains(": 3, DOWN: p3"), once.log());
        assertTrue(once.log().contains("[DOWN] Latency Server partition p3 (LatencyServer/p3)  -- server unreachable"), once.log());

        final ReadyProcess returned = startServer("p3-returned", "p3");
        final Latserv back = serverOf("x3");
        assertTrue(back._is_equivalent(orb.string_to_object(returned.ready().reference("server"))),
            "by-client/x3 is bound to the returned server");
        assertEquals(before, back.RequestStatus((short) 301).latency_estimate, "it returns with its state (the state file)");
        assertEquals(50, back.RequestTableStatus((short) 301).latest_client_mib_cpu, "the MIB values pushed before the kill");
        awaitTrue(() -> allUp(webSnapshot(web)), "the web page shows p3 up again");
        page.until(b -> b.findElements(By.cssSelector("section.up")).size() == 3);
        page.withMessage("the page's header says all up").until(b ->
            "all up".equals(b.findElement(By.id("summary")).getText().replaceFirst("^3 partitions, ", "")));
    }

    // ---- the deployment ---------------------------------------------------------------------------

    private ReadyProcess startServer(final String name, final String partition) throws Exception {
        final int k = Integer.parseInt(partition.substring(1));
        return system.start(system.serverLaunch(name, write(partition, partition, k * 100, "x" + k))
            .args("--naming", naming, "--metrics-port", "-1"));
    }

    /** A partition's configuration: client node CLIENT (peer y + its suffix), index_refs BASE+1 (QoS 1) and BASE+2 (QoS 3). */
    private Path write(final String fileName, final String partition, final int base, final String client) throws IOException {
        final String peer = "y" + client.substring(1);
        return ServerYaml.named("LatencyServer").server("partition", partition)
            .stateFile(directory.resolve(partition + ".state.json")).metricsOff()
            .measurement("round_trips", 200).measurement("warmup_round_trips", 20).measurement("timeout_millis", 60000)
            .measurement("min_interval_millis", 0)
            .profile(Testbed.PROFILES.resolve("thesis-tac4-corba.json"))
            .node(Node.of(client, 1, "TAC-4")).node(Node.of(peer, 2, "TAC-4"))
            .connection(Connection.of(base + 1, client, peer, 1).profile("thesis-tac4-corba").calibration("thesis").probeRatePerSecond(0))
            .connection(Connection.of(base + 2, client, peer, 3).calibration("thesis").probeRatePerSecond(0))
            .writeTo(directory.resolve(fileName + ".yaml"));
    }

    /** As an application on that node finds its server: {@code LatencyServer} in the naming service, by its node. */
    private Latserv serverOf(final String node) {
        return LatservHelper.narrow(References.resolveServer(orb, "LatencyServer", naming, List.of(node)));
    }

    /** @return the web page's address of a console showing every partition */
    private String startWebConsole() throws Exception {
        return system.start(system.launch(Component.CONSOLE).name("console-web-" + System.nanoTime())
            .args("--naming", naming, "--all-partitions", "--http-port", "0")).ready().url("console");
    }

    private static JsonNode webSnapshot(final String url) {
        try {
            final HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(url + "api/snapshot")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            return new ObjectMapper().readTree(response.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<String> partitionNames(final JsonNode page) {
        final List<String> names = new ArrayList<>();
        page.get("partitions").forEach(p -> names.add(p.get("partition").asText()));
        return names;
    }

    private static boolean allUp(final JsonNode page) {
        boolean up = page.get("partitions").size() == 3;
        for (final JsonNode partition : page.get("partitions")) {
            up &= partition.get("up").asBoolean();
        }
        return up;
    }

    private static List<String> textList(final JsonNode array) {
        final List<String> texts = new ArrayList<>();
        array.forEach(t -> texts.add(t.asText()));
        return texts;
    }

    /** Asks again every 200 ms until the condition holds; fails after {@link #WITHIN} (a generous limit, not a timing claim). */
    private static void awaitTrue(final BooleanSupplier condition, final String what) throws InterruptedException {
        final long deadline = System.nanoTime() + WITHIN.toNanos();
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (SystemException notYet) {
                // asked again below
            }
            assertFalse(System.nanoTime() > deadline, "not within " + WITHIN.toSeconds() + " s: " + what);
            Thread.sleep(200);
        }
    }
}
