package org.latencyserver.agent.profiler;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.snmp4j.CommunityTarget;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.GenericAddress;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * The profiler's SNMP v2c reads, with the OIDs the server's poller reads: a switch port's IF-MIB
 * ifHCInOctets/ifHCOutOctets ({@code .1.3.6.1.2.1.31.1.1.1.6/.10.IFINDEX}) and a workstation's
 * UCD-SNMP-MIB raw CPU ticks (ssCpuRawUser/Nice/System/Idle, {@code .1.3.6.1.4.1.2021.11.50–.53.0}).
 *
 * <p>Synchronous GETs, 1 s time-out, one retry. Thread-safe (SNMP4J's session is); close it once.
 */
final class SnmpReader implements AutoCloseable {

    private static final String IF_X_ENTRY = "1.3.6.1.2.1.31.1.1.1.";
    private static final OID[] UCD_RAW_CPU = {new OID("1.3.6.1.4.1.2021.11.50.0"), new OID("1.3.6.1.4.1.2021.11.51.0"),
        new OID("1.3.6.1.4.1.2021.11.52.0"), new OID("1.3.6.1.4.1.2021.11.53.0")};

    private final Snmp snmp;

    SnmpReader() throws IOException {
        snmp = new Snmp(new DefaultUdpTransportMapping());
        snmp.listen();
    }

    /**
     * @param address   {@code udp:HOST/PORT}, as the server's {@code snmp.address}
     * @param community the v2c community
     * @return the agent
     * @throws IllegalArgumentException naming the option when the address is not UDP
     */
    static CommunityTarget<Address> agent(final String option, final String address, final String community) {
        final Address parsed = address == null ? null : GenericAddress.parse(address);
        if (!(parsed instanceof UdpAddress)) {
            throw new IllegalArgumentException(option + ": '" + address + "' is not an SNMP agent's address like udp:198.18.0.254/161");
        }
        final CommunityTarget<Address> target = new CommunityTarget<>(parsed, new OctetString(community));
        target.setVersion(SnmpConstants.version2c);
        target.setTimeout(1_000);
        target.setRetries(1);
        return target;
    }

    /** @return {in, out} octets of the port */
    long[] portOctets(final CommunityTarget<Address> agent, final int ifIndex) throws IOException {
        final List<Variable> values = get(agent, new OID(IF_X_ENTRY + "6." + ifIndex), new OID(IF_X_ENTRY + "10." + ifIndex));
        return new long[] {values.get(0).toLong(), values.get(1).toLong()};
    }

    /** @return {busy ticks, all ticks} of the host (user + nice + system busy; + idle all) */
    long[] cpuTicks(final CommunityTarget<Address> agent) throws IOException {
        final List<Variable> values = get(agent, UCD_RAW_CPU);
        final long busy = values.get(0).toLong() + values.get(1).toLong() + values.get(2).toLong();
        return new long[] {busy, busy + values.get(3).toLong()};
    }

    private List<Variable> get(final CommunityTarget<Address> agent, final OID... oids) throws IOException {
        final PDU pdu = new PDU();
        for (final OID oid : oids) {
            pdu.add(new VariableBinding(oid));
        }
        pdu.setType(PDU.GET);
        final ResponseEvent<Address> event = snmp.send(pdu, agent);
        final PDU response = event.getResponse();
        if (response == null) {
            throw new IOException("the SNMP agent " + agent.getAddress() + " did not answer (timeout" + (event.getError() != null
                ? ", " + event.getError() : "") + "; wrong community or address?)");
        }
        if (response.getErrorStatus() != PDU.noError) {
            throw new IOException("the SNMP agent " + agent.getAddress() + " answered " + response.getErrorStatusText());
        }
        final List<Variable> values = new ArrayList<>();
        for (int i = 0; i < oids.length; i++) {
            final Variable value = response.get(i).getVariable();
            if (value.isException()) {
                throw new IOException("the SNMP agent " + agent.getAddress() + " has no " + oids[i] + " (" + value + ")");
            }
            values.add(value);
        }
        return values;
    }

    @Override
    public void close() throws IOException {
        snmp.close();
    }
}
