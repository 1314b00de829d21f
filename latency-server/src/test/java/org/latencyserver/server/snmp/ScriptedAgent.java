package org.latencyserver.server.snmp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.snmp4j.CommandResponder;
import org.snmp4j.CommandResponderEvent;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.mp.StatusInformation;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * A test SNMP v2c agent on a loopback UDP port that answers GET requests from a script: a function
 * from OID to value (null answers noSuchInstance), or silence. Requests with another community are
 * ignored, as a real agent does.
 *
 * <p>Thread-safe: the script may be swapped while requests arrive.
 */
public final class ScriptedAgent implements CommandResponder, AutoCloseable {

    private final Snmp snmp;
    private final UdpAddress address;
    private final String community;
    private final AtomicInteger requests = new AtomicInteger();
    private volatile org.snmp4j.smi.Address lastRequester;
    private volatile Function<OID, Variable> script = oid -> null;
    private volatile boolean silent;
    private volatile NavigableMap<OID, Variable> walkable = new TreeMap<>();

    public ScriptedAgent(final String community) throws IOException {
        this.community = community;
        final DefaultUdpTransportMapping transport = new DefaultUdpTransportMapping(new UdpAddress("127.0.0.1/0"));
        snmp = new Snmp(transport);
        snmp.addCommandResponder(this);
        snmp.listen();
        address = transport.getListenAddress();
    }

    /** @return e.g. {@code udp:127.0.0.1/40123} */
    public String address() {
        return "udp:" + address.getInetAddress().getHostAddress() + "/" + address.getPort();
    }

    public void script(final Function<OID, Variable> values) {
        script = values;
    }

    /** Values served to GETBULK (in OID order); GET keeps using {@link #script}. */
    void walkable(final NavigableMap<OID, Variable> values) {
        walkable = new TreeMap<>(values);
    }

    public void silent(final boolean silence) {
        silent = silence;
    }

    int requests() {
        return requests.get();
    }

    /** @return where the last answered request came from (the poller's socket), null before one */
    org.snmp4j.smi.Address lastRequester() {
        return lastRequester;
    }

    @Override
    public <A extends org.snmp4j.smi.Address> void processPdu(final CommandResponderEvent<A> event) {
        event.setProcessed(true);
        if (silent || !community.equals(new String(event.getSecurityName(), StandardCharsets.UTF_8))
            || (event.getPDU().getType() != PDU.GET && event.getPDU().getType() != PDU.GETBULK)) {
            return;
        }
        lastRequester = event.getPeerAddress();
        requests.incrementAndGet();
        final PDU response = new PDU();
        response.setType(PDU.RESPONSE);
        response.setRequestID(event.getPDU().getRequestID());
        if (event.getPDU().getType() == PDU.GETBULK) {
            bulk(event.getPDU(), response);
        } else {
            final Function<OID, Variable> values = script;
            for (final VariableBinding asked : event.getPDU().getVariableBindings()) {
                final Variable value = values.apply(asked.getOid());
                response.add(new VariableBinding(asked.getOid(), value == null ? Null.noSuchInstance : value));
            }
        }
        try {
            event.getMessageDispatcher().returnResponsePdu(event.getMessageProcessingModel(), event.getSecurityModel(),
                event.getSecurityName(), event.getSecurityLevel(), response, event.getMaxSizeResponsePDU(),
                event.getStateReference(), new StatusInformation());
        } catch (Exception e) {
            throw new IllegalStateException("the scripted agent could not answer", e);
        }
    }

    /** One repeating binding is enough for the poller's requests, so repetitions are not interleaved. */
    private void bulk(final PDU request, final PDU response) {
        final NavigableMap<OID, Variable> values = walkable;
        final List<? extends VariableBinding> asked = request.getVariableBindings();
        for (int i = 0; i < asked.size(); i++) {
            OID oid = asked.get(i).getOid();
            final int repetitions = i < request.getNonRepeaters() ? 1 : request.getMaxRepetitions();
            for (int r = 0; r < repetitions; r++) {
                final Map.Entry<OID, Variable> next = values.higherEntry(oid);
                if (next == null) {
                    response.add(new VariableBinding(oid, Null.endOfMibView));
                    break;
                }
                response.add(new VariableBinding(next.getKey(), next.getValue()));
                oid = next.getKey();
            }
        }
    }

    @Override
    public void close() throws IOException {
        snmp.close();
    }

    /** A value map as a script (absent OIDs answer noSuchInstance). */
    static Function<OID, Variable> of(final Map<OID, Variable> values) {
        final Map<OID, Variable> copy = new ConcurrentHashMap<>(values);
        return copy::get;
    }

    /**
     * A workstation at a steady 20 % CPU as net-snmp's UCD MIB shows it: each poll advances
     * sysUpTime, ssCpuRawUser by 1 and ssCpuRawIdle by 4 (nice and system stay 0).
     *
     * @param polls counts the polls (advanced on each ssCpuRawUser read)
     * @return the answers, for {@link #script}
     */
    public static Function<OID, Variable> steadyUcdCpu(final java.util.concurrent.atomic.AtomicLong polls) {
        return oid -> {
            final String text = oid.toString();
            if (text.equals("1.3.6.1.2.1.1.3.0")) {
                return new org.snmp4j.smi.TimeTicks(1000 + polls.get());
            }
            if (text.equals("1.3.6.1.4.1.2021.11.50.0")) {
                return new org.snmp4j.smi.Counter32(1000 + polls.incrementAndGet());
            }
            if (text.equals("1.3.6.1.4.1.2021.11.51.0") || text.equals("1.3.6.1.4.1.2021.11.52.0")) {
                return new org.snmp4j.smi.Counter32(0);
            }
            if (text.equals("1.3.6.1.4.1.2021.11.53.0")) {
                return new org.snmp4j.smi.Counter32(5000 + 4 * polls.get());
            }
            return null;
        };
    }

}
