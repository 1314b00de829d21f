package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.snmp4j.PDU;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.VariableBinding;

class SnmpEndpointTest {
    private static SnmpEndpoint endpoint() throws Exception {
        Scenario s = ScenarioLoader.parse("nodes: [ { name: ws1, port: 0, cores: 1 } ]\nsteps: [ { cpu: { ws1: 30 } } ]\n", "t.yaml");
        return new SnmpEndpoint(EmulatedMib.forNode(new CounterModel(s), s.nodes().get(0)), InetAddress.getLoopbackAddress(),
                0, new AccessConfig(Optional.of("c"), Optional.empty()), () -> 0);
    }

    private static List<String> rendered(PDU response) {
        return response.getVariableBindings().stream()
                .map(vb -> vb.getOid() + "=" + (vb.getVariable() instanceof Null ? vb.getVariable().getSyntaxString() : "value"))
                .toList();
    }

    @Test
    void getBulkAnswersNonRepeatersOnceThenRepeatsUntilTheEndOfTheMib() throws Exception {
        PDU bulk = new PDU();
        bulk.setType(PDU.GETBULK);
        bulk.setNonRepeaters(1);
        bulk.setMaxRepetitions(5);
        bulk.add(new VariableBinding(new OID("1.3.6.1.2.1.1.3")));
        bulk.add(new VariableBinding(new OID("1.3.6.1.4.1.2021.11.53.0")));
        PDU response = endpoint().answer(bulk, 1472, 1_000_000);
        assertEquals(PDU.RESPONSE, response.getType());
        assertEquals(List.of("1.3.6.1.2.1.1.3.0=value", "1.3.6.1.4.1.2021.11.54.0=value",
                "1.3.6.1.4.1.2021.11.54.0=EndOfMibView"), rendered(response));
    }

    @Test
    void getBulkStopsBeforeTheResponseOutgrowsTheRequestersMaximumSize() throws Exception {
        PDU bulk = new PDU();
        bulk.setType(PDU.GETBULK);
        bulk.setMaxRepetitions(1000);
        bulk.add(new VariableBinding(new OID("1.3")));
        PDU response = endpoint().answer(bulk, 484, 1_000_000);
        int bytes = response.getVariableBindings().stream().mapToInt(VariableBinding::getBERLength).sum();
        assertTrue(bytes <= 484 - 200 && !response.getVariableBindings().isEmpty(), "varbinds of " + bytes + " bytes");
    }

    @Test
    void setIsRefusedAsNotWritable() throws Exception {
        PDU set = new PDU();
        set.setType(PDU.SET);
        set.add(new VariableBinding(EmulatedMib.SYS_UPTIME, new Integer32(0)));
        PDU response = endpoint().answer(set, 1472, 0);
        assertEquals(PDU.notWritable, response.getErrorStatus());
    }

    @Test
    void getNextPastTheLastOidAnswersEndOfMibView() throws Exception {
        PDU next = new PDU();
        next.setType(PDU.GETNEXT);
        next.add(new VariableBinding(new OID("1.3.6.1.4.1.2021.11.54.0")));
        assertEquals(List.of("1.3.6.1.4.1.2021.11.54.0=EndOfMibView"), rendered(endpoint().answer(next, 1472, 0)));
    }
}
