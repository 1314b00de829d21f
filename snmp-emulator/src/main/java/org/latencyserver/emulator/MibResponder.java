package org.latencyserver.emulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snmp4j.CommandResponder;
import org.snmp4j.CommandResponderEvent;
import org.snmp4j.MessageException;
import org.snmp4j.PDU;
import org.snmp4j.mp.StatusInformation;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityModel;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;

/**
 * Answers the requests of one emulated agent from its {@link EmulatedMib}: GET, GETNEXT and GETBULK,
 * SET with notWritable; requests with a wrong community, an unknown user or a security level below
 * authPriv are dropped unanswered, as net-snmp does. It does not care which thread or socket
 * brought the request: {@link SnmpEndpoint} hands it SNMP4J's decoded requests either from its own
 * listener thread or from the emulator's shared {@link UdpSelectorLoop}.
 *
 * <p>Thread-safe: all state it reads is immutable, its counters are atomic.
 */
final class MibResponder implements CommandResponder {
    private static final Logger LOG = LoggerFactory.getLogger(MibResponder.class);
    /** Room left in a response for the message header and security parameters, in bytes. */
    private static final int RESPONSE_HEADER_ALLOWANCE_BYTES = 200;
    /** The smallest message every SNMP engine must accept (RFC 3417), in bytes. */
    private static final int MIN_MESSAGE_BYTES = 484;

    private final EmulatedMib mib;
    private final AccessConfig access;
    private final LongSupplier elapsedMicros;
    private final AtomicLong answeredRequests = new AtomicLong();
    private final AtomicLong droppedRequests = new AtomicLong();

    /**
     * @param mib           the values to serve
     * @param access        the community and/or v3 user allowed to read
     * @param elapsedMicros the emulator's clock: microseconds since it started
     */
    MibResponder(EmulatedMib mib, AccessConfig access, LongSupplier elapsedMicros) {
        this.mib = mib;
        this.access = access;
        this.elapsedMicros = elapsedMicros;
    }

    EmulatedMib mib() {
        return mib;
    }

    long answeredRequests() {
        return answeredRequests.get();
    }

    long droppedRequests() {
        return droppedRequests.get();
    }

    @Override
    public <A extends Address> void processPdu(CommandResponderEvent<A> event) {
        PDU request = event.getPDU();
        if (request == null) {
            return;
        }
        int type = request.getType();
        if (type != PDU.GET && type != PDU.GETNEXT && type != PDU.GETBULK && type != PDU.SET) {
            return;
        }
        event.setProcessed(true);
        if (!authorised(event)) {
            droppedRequests.incrementAndGet();
            return;
        }
        PDU response = answer(request, event.getMaxSizeResponsePDU(), elapsedMicros.getAsLong());
        try {
            event.getMessageDispatcher().returnResponsePdu(event.getMessageProcessingModel(), event.getSecurityModel(),
                    event.getSecurityName(), event.getSecurityLevel(), response, event.getMaxSizeResponsePDU(),
                    event.getStateReference(), new StatusInformation());
            answeredRequests.incrementAndGet();
        } catch (MessageException e) {
            LOG.warn("{}: could not send the response to {}: {}", mib.name(), event.getPeerAddress(), e.getMessage());
        }
    }

    private boolean authorised(CommandResponderEvent<?> event) {
        byte[] securityName = event.getSecurityName();
        if (event.getSecurityModel() == SecurityModel.SECURITY_MODEL_SNMPv2c) {
            return access.community().map(c -> Arrays.equals(c.getBytes(StandardCharsets.UTF_8), securityName))
                    .orElse(false);
        }
        if (event.getSecurityModel() == SecurityModel.SECURITY_MODEL_USM) {
            return event.getSecurityLevel() == SecurityLevel.AUTH_PRIV && access.v3()
                    .map(u -> Arrays.equals(u.userName().getBytes(StandardCharsets.UTF_8), securityName))
                    .orElse(false);
        }
        return false;
    }

    /**
     * Builds the response PDU for one request, all values read at the same instant so that the
     * counters in one response are consistent with each other.
     */
    PDU answer(PDU request, int maxResponseBytes, long nowMicros) {
        // SNMP4J keeps GETBULK's non-repeaters and max-repetitions in the error fields: read them first.
        int nonRepeaters = request.getNonRepeaters();
        int maxRepetitions = request.getMaxRepetitions();
        List<VariableBinding> in = new ArrayList<>(request.getVariableBindings());
        PDU response = (PDU) request.clone();
        response.setType(PDU.RESPONSE);
        response.setErrorStatus(PDU.noError);
        response.setErrorIndex(0);
        List<VariableBinding> out = new ArrayList<>();
        switch (request.getType()) {
            case PDU.GET -> in.forEach(vb -> out.add(get(vb.getOid(), nowMicros)));
            case PDU.GETNEXT -> in.forEach(vb -> out.add(next(vb.getOid(), nowMicros)));
            case PDU.GETBULK -> bulk(in, nonRepeaters, maxRepetitions, maxResponseBytes, nowMicros, out);
            default -> {
                // SET: this agent is read-only.
                out.addAll(in);
                response.setErrorStatus(PDU.notWritable);
                response.setErrorIndex(1);
            }
        }
        response.setVariableBindings(out);
        return response;
    }

    private VariableBinding get(OID oid, long nowMicros) {
        Variable value = mib.get(oid, nowMicros);
        if (value != null) {
            return new VariableBinding(oid, value);
        }
        // noSuchInstance when the object (the OID's parent column or scalar) exists, else noSuchObject.
        OID parent = new OID(oid);
        parent.trim(1);
        Map.Entry<OID, Variable> next = parent.size() > 0 ? mib.next(parent, nowMicros) : null;
        boolean objectExists = next != null && next.getKey().startsWith(parent);
        return new VariableBinding(oid, objectExists ? Null.noSuchInstance : Null.noSuchObject);
    }

    private VariableBinding next(OID oid, long nowMicros) {
        Map.Entry<OID, Variable> next = mib.next(oid, nowMicros);
        return next == null ? new VariableBinding(oid, Null.endOfMibView)
                : new VariableBinding(next.getKey(), next.getValue());
    }

    private void bulk(List<VariableBinding> in, int nonRepeaters, int maxRepetitions, int maxResponseBytes,
            long nowMicros, List<VariableBinding> out) {
        int n = Math.max(0, Math.min(nonRepeaters, in.size()));
        int budgetBytes = Math.max(MIN_MESSAGE_BYTES, maxResponseBytes) - RESPONSE_HEADER_ALLOWANCE_BYTES;
        int usedBytes = 0;
        for (int i = 0; i < n; i++) {
            VariableBinding vb = next(in.get(i).getOid(), nowMicros);
            out.add(vb);
            usedBytes += vb.getBERLength();
        }
        List<OID> cursors = new ArrayList<>();
        for (int i = n; i < in.size(); i++) {
            cursors.add(in.get(i).getOid());
        }
        if (cursors.isEmpty()) {
            return;
        }
        for (int rep = 0; rep < Math.max(0, maxRepetitions); rep++) {
            boolean allEnded = true;
            List<VariableBinding> row = new ArrayList<>();
            int rowBytes = 0;
            for (int c = 0; c < cursors.size(); c++) {
                VariableBinding vb = next(cursors.get(c), nowMicros);
                if (!(vb.getVariable() instanceof Null)) {
                    allEnded = false;
                }
                cursors.set(c, vb.getOid());
                row.add(vb);
                rowBytes += vb.getBERLength();
            }
            if (!out.isEmpty() && usedBytes + rowBytes > budgetBytes) {
                return;
            }
            out.addAll(row);
            usedBytes += rowBytes;
            if (allEnded) {
                return;
            }
        }
    }
}
