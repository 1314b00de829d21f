package org.latencyserver.server.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.config.LinkConfig;
import org.latencyserver.server.config.MibSource;
import org.latencyserver.server.config.NodeConfig;
import org.latencyserver.server.config.SnmpAccess;
import org.latencyserver.server.table.ConnectionRow;
import org.snmp4j.PDU;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.SMIConstants;
import org.snmp4j.smi.VariableBinding;

/**
 * The snmpd configurations the distribution ships ({@code share/snmpd/}), run by net-snmp's real
 * {@code snmpd} as an operator installs them: the file as {@code snmpd.conf} with only its
 * {@code agentAddress} moved to a free loopback port, and the v3 user as
 * {@code net-snmp-create-v3-user} creates it (a {@code createUser} line in the persistent
 * directory's {@code snmpd.conf}). The real poller reads them over v3 authPriv SHA/AES as user
 * {@code latency}, as the distribution's server configuration does, and feeds a real update engine.
 *
 * <p>Each agent answers the test's own sysUpTime request before the poller starts, so a workstation
 * the poller makes UNKNOWN was made so by the agent's answers (its view), not by an agent not yet up.
 * Debian's default view is the contrast: it answers sysUpTime, and the workstation stays UNKNOWN.
 */
class ShippedSnmpdRecipesTest {

    private static final Path RECIPES = Path.of("../distribution/src/snmpd");
    private static final String AUTH_ENV = "LATENCY_SNMP_AUTH";
    private static final String PRIV_ENV = "LATENCY_SNMP_PRIV";
    /** IF-MIB ifOutDiscards of ifIndex 1, a link's discards_oid */
    private static final String IF_OUT_DISCARDS_LOOPBACK = "1.3.6.1.2.1.2.2.1.19.1";
    /** ifIndex 1 is the loopback interface; its ifHighSpeed is 10 Mbit/s. */
    private static final int LOOPBACK_IF_INDEX = 1;
    /** net-snmp reads 0 for its first seconds and refreshes the CPU counters every ~5 s. */
    private static final long KNOWN_WITHIN_SECONDS = 40;
    /** 5 misses at 100 ms, with room for a busy machine */
    private static final long UNKNOWN_WITHIN_SECONDS = 10;

    @TempDir
    Path directory;

    private final String authPassword = NetSnmpd.secret();
    private final String privPassword = NetSnmpd.secret();
    private final Map<String, String> environment = Map.of(AUTH_ENV, authPassword, PRIV_ENV, privPassword);
    private NetSnmpd snmpd;
    private AgentProbe probe;
    private PolledConnection polled;

    @AfterEach
    void stopAll() throws Exception {
        if (polled != null) {
            polled.close();
        }
        if (probe != null) {
            probe.close();
        }
        if (snmpd != null) {
            snmpd.close();
        }
    }

    @Test
    void hostRecipeGivesThePollerTheWorkstationsCpuAndItsLoopbackPort() throws Exception {
        final String address = startAgent(port -> recipe("snmpd-host.conf", port));

        assertAllAnswered("snmpd-host.conf, ssCpuRaw* (cpu_source ucd-raw)",
            probe.get(oidsOf(new UcdCpuSource("ws1", probe.target(), 1))));
        assertAllAnswered("snmpd-host.conf, the port's IF-MIB counters and its discards_oid",
            probe.get(oidsOf(new LinkSource("lo", probe.target(), 1, LOOPBACK_IF_INDEX, 0, IF_OUT_DISCARDS_LOOPBACK))));
        // hrProcessorLoad has rows only a minute after the agent starts: inside the view it is noSuchInstance until then.
        assertInView("snmpd-host.conf, hrProcessorLoad (cpu_source hr-processor-load)",
            probe.get(HrProcessorLoadSource.HR_PROCESSOR_LOAD));
        final PDU withoutPrivacy = probe.getWithoutPrivacy(PolledSource.SYS_UP_TIME);
        assertNotNull(withoutPrivacy, "net-snmp answers a refused v3 request with an error");
        assertEquals(PDU.authorizationError, withoutPrivacy.getErrorStatus(),
            "the recipe's user is read at authPriv only, an authNoPriv request is refused: " + withoutPrivacy);

        polled = PolledConnection.start(polledNode("ws1", address), pushedNode("ws2"), polledLink(address), environment,
            nanos -> { }, snmpd::logExcerpt);
        final ConnectionRow known = polled.awaitRow("the workstation's CPU and the loopback port known",
            r -> r.latest().clientCpuPercent() >= 0 && r.latest().portPercent() >= 0, KNOWN_WITHIN_SECONDS);
        assertTrue(known.load().cpu().client().isKnown(), "the workstation's CPU state: " + known.load());
        assertTrue(known.latest().clientCpuPercent() <= 100 && known.latest().portPercent() <= 100, known.latest().toString());
    }

    @Test
    void switchRecipeGivesThePollerThePortAndLeavesAWorkstationPolledAgainstItUnknown() throws Exception {
        final String address = startAgent(port -> recipe("snmpd-switch.conf", port));

        assertAllAnswered("snmpd-switch.conf, the port's IF-MIB counters and its discards_oid",
            probe.get(oidsOf(new LinkSource("lo", probe.target(), 1, LOOPBACK_IF_INDEX, 0, IF_OUT_DISCARDS_LOOPBACK))));
        assertOutsideView("snmpd-switch.conf has no UCD-SNMP-MIB", probe.get(oidsOf(new UcdCpuSource("ws1", probe.target(), 1))));

        polled = PolledConnection.start(polledNode("ws1", address), pushedNode("ws2"), polledLink(address), environment,
            nanos -> { }, snmpd::logExcerpt);
        polled.awaitRow("the loopback port known", r -> r.latest().portPercent() >= 0, KNOWN_WITHIN_SECONDS);
        polled.awaitSourceUnknown("ws1", UNKNOWN_WITHIN_SECONDS);
        final ConnectionRow row = polled.row();
        assertEquals(CpuState.UNKNOWN, row.load().cpu().client(), "the workstation the switch's view hides: " + row.load());
        assertEquals(-1, row.latest().clientCpuPercent(), row.latest().toString());
        assertTrue(row.latest().portPercent() >= 0, "the port stays known: " + row.latest());
    }

    @Test
    void debiansDefaultViewAnswersSysUpTimeButLeavesTheWorkstationsCpuUnknown() throws Exception {
        // What Debian's /etc/snmp/snmpd.conf grants, given to the latency user.
        final String address = startAgent(port -> String.join("\n",
            "agentAddress udp:127.0.0.1:" + port,
            "view systemonly included .1.3.6.1.2.1.1",
            "view systemonly included .1.3.6.1.2.1.25.1",
            "rouser latency priv -V systemonly",
            ""));
        // startAgent saw sysUpTime answered; the CPU counters are not.
        assertOutsideView("Debian's systemonly view", probe.get(oidsOf(new UcdCpuSource("ws1", probe.target(), 1))));

        polled = PolledConnection.start(polledNode("ws1", address), pushedNode("ws2"), null, environment, nanos -> { },
            snmpd::logExcerpt);
        polled.awaitSourceUnknown("ws1", UNKNOWN_WITHIN_SECONDS);
        final ConnectionRow row = polled.row();
        assertEquals(CpuState.UNKNOWN, row.load().cpu().client(), row.load().toString());
        assertEquals(-1, row.latest().clientCpuPercent(), row.latest().toString());
    }

    /** Text of an agent's snmpd.conf for the free loopback port it is given. */
    @FunctionalInterface
    private interface AgentConfig {
        String forPort(int port) throws IOException;
    }

    /**
     * Starts snmpd with the configuration and the user {@code latency} in its persistent directory,
     * and waits until it answers sysUpTime.0 at authPriv.
     *
     * @return the agent's address for an snmp block
     */
    private String startAgent(final AgentConfig config) throws Exception {
        final int port = NetSnmpd.freeUdpPort();
        // As net-snmp-create-v3-user -a SHA -A AUTH -x AES -X PRIV latency writes it.
        final String createUser = "createUser latency SHA \"" + authPassword + "\" AES \"" + privPassword + "\"";
        snmpd = NetSnmpd.installed(directory, config.forPort(port), createUser);
        snmpd.start();
        final String address = "udp:127.0.0.1/" + port;
        probe = new AgentProbe(v3(address, 1000, 1), environment::get);
        final PDU upTime;
        try {
            upTime = probe.awaitSysUpTime(20);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; snmpd log: " + snmpd.logExcerpt(), e);
        }
        assertEquals(PDU.noError, upTime.getErrorStatus(), "sysUpTime.0 at authPriv: " + upTime + "; snmpd log: "
            + snmpd.logExcerpt());
        assertEquals(SMIConstants.SYNTAX_TIMETICKS, upTime.get(0).getVariable().getSyntax(), "sysUpTime.0 at authPriv: " + upTime
            + "; snmpd log: " + snmpd.logExcerpt());
        return address;
    }

    /**
     * @return the shipped recipe with its one agentAddress line moved to the loopback port
     */
    private static String recipe(final String file, final int port) throws IOException {
        final String text = Files.readString(RECIPES.resolve(file));
        assertEquals(1, text.lines().filter(line -> line.startsWith("agentAddress ")).count(),
            file + ": one agentAddress line, moved to the test's port");
        return text.replaceAll("(?m)^agentAddress .*$", "agentAddress udp:127.0.0.1:" + port);
    }

    private static SnmpAccess v3(final String address, final long timeoutMillis, final int retries) {
        return new SnmpAccess(address, SnmpAccess.Version.V3, null, "latency", SnmpAccess.AuthProtocol.SHA, AUTH_ENV,
            SnmpAccess.PrivProtocol.AES, PRIV_ENV, SnmpAccess.CpuSource.UCD_RAW, timeoutMillis, retries);
    }

    private static NodeConfig polledNode(final String name, final String address) {
        return new NodeConfig(name, (short) 1, WorkstationType.TAC_4, MibSource.SNMP, v3(address, 300, 0));
    }

    private static NodeConfig pushedNode(final String name) {
        return new NodeConfig(name, (short) 2, WorkstationType.TAC_4, MibSource.PUSH, null);
    }

    private static LinkConfig polledLink(final String address) {
        final SnmpAccess access = new SnmpAccess(address, SnmpAccess.Version.V3, null, "latency", SnmpAccess.AuthProtocol.SHA,
            AUTH_ENV, SnmpAccess.PrivProtocol.AES, PRIV_ENV, null, 300, 0);
        return new LinkConfig("lo", MibSource.SNMP, access, LOOPBACK_IF_INDEX, 0, IF_OUT_DISCARDS_LOOPBACK);
    }

    /** @return the OIDs the source's poll asks for */
    private static OID[] oidsOf(final PolledSource source) {
        return source.request().getVariableBindings().stream().map(VariableBinding::getOid).toArray(OID[]::new);
    }

    private static void assertAllAnswered(final String what, final PDU answer) {
        assertAnswered(what, answer);
        for (final VariableBinding binding : answer.getVariableBindings()) {
            assertFalse(binding.isException(), what + ": " + binding + " (noSuchObject: outside the view)");
        }
    }

    private static void assertInView(final String what, final PDU answer) {
        assertAnswered(what, answer);
        for (final VariableBinding binding : answer.getVariableBindings()) {
            assertNotEquals(SMIConstants.EXCEPTION_NO_SUCH_OBJECT, binding.getVariable().getSyntax(),
                what + ": " + binding + " is outside the view");
        }
    }

    /** sysUpTime answers; every other OID asked for is noSuchObject, what net-snmp answers outside a view. */
    private static void assertOutsideView(final String what, final PDU answer) {
        assertAnswered(what, answer);
        for (final VariableBinding binding : answer.getVariableBindings()) {
            if (binding.getOid().equals(PolledSource.SYS_UP_TIME)) {
                assertFalse(binding.isException(), what + ": " + binding);
            } else {
                assertEquals(SMIConstants.EXCEPTION_NO_SUCH_OBJECT, binding.getVariable().getSyntax(),
                    what + ": " + binding + " is inside the view");
            }
        }
    }

    private static void assertAnswered(final String what, final PDU answer) {
        assertNotNull(answer, what + ": no answer");
        assertEquals(PDU.noError, answer.getErrorStatus(), what + ": " + answer);
    }
}
