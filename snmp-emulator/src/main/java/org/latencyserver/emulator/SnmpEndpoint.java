package org.latencyserver.emulator;

import java.io.IOException;
import java.net.InetAddress;
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
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.MessageException;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.mp.CounterSupport;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.mp.StatusInformation;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityModel;
import org.snmp4j.security.SecurityModels;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;
import org.snmp4j.util.DefaultPDUFactory;

/**
 * One emulated SNMP agent on its own UDP port: answers GET, GETNEXT and GETBULK for the OIDs
 * of one {@link EmulatedMib}, over SNMPv2c (one community) and SNMPv3 (one USM user, authPriv
 * SHA + AES-128), each agent with its own engine ID. Requests with a wrong community, an
 * unknown user or a lower security level are dropped unanswered, as net-snmp does; SET is
 * answered with notWritable.
 *
 * <p>Thread-safe: SNMP4J's listener thread calls {@link #processPdu}; all state it reads is
 * immutable or atomic. {@link #start()} and {@link #close()} are meant for one owner thread.
 */
public final class SnmpEndpoint implements CommandResponder, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SnmpEndpoint.class);
    /** Room left in a response for the message header and security parameters, in bytes. */
    private static final int RESPONSE_HEADER_ALLOWANCE_BYTES = 200;
    private static final int MAX_ENGINE_ID_TEXT_CHARS = 20;

    private final EmulatedMib mib;
    private final InetAddress bindAddress;
    private final int requestedUdpPort;
    private final AccessConfig access;
    private final LongSupplier elapsedMicros;
    private final AtomicLong answeredRequests = new AtomicLong();
    private final AtomicLong droppedRequests = new AtomicLong();
    private Snmp snmp;
    private DefaultUdpTransportMapping transport;

    /**
     * @param mib the values to serve
     * @param bindAddress the local address to listen on (loopback by default)
     * @param udpPort the UDP port, 0 for any free one
     * @param access the community and/or v3 user allowed to read
     * @param elapsedMicros the emulator's clock: microseconds since it started
     */
    public SnmpEndpoint(EmulatedMib mib, InetAddress bindAddress, int udpPort, AccessConfig access,
            LongSupplier elapsedMicros) {
        this.mib = mib;
        this.bindAddress = bindAddress;
        this.requestedUdpPort = udpPort;
        this.access = access;
        this.elapsedMicros = elapsedMicros;
    }

    /** Opens the UDP port and starts answering. @throws IOException if the port cannot be bound */
    public synchronized void start() throws IOException {
        transport = new DefaultUdpTransportMapping(new UdpAddress(bindAddress, requestedUdpPort));
        String engineText = mib.name().length() > MAX_ENGINE_ID_TEXT_CHARS
                ? mib.name().substring(0, MAX_ENGINE_ID_TEXT_CHARS) : mib.name();
        byte[] engineId = MPv3.createLocalEngineID(new OctetString("ls-" + engineText));
        SecurityProtocols protocols = SecurityProtocols.getInstance();
        protocols.addAuthenticationProtocol(new AuthSHA());
        protocols.addPrivacyProtocol(new PrivAES128());
        USM usm = new USM(protocols, new OctetString(engineId), 1);
        access.v3().ifPresent(user -> usm.addUser(new OctetString(user.userName()), new OctetString(engineId),
                new UsmUser(new OctetString(user.userName()), AuthSHA.ID, new OctetString(user.authPassphrase()),
                        PrivAES128.ID, new OctetString(user.privPassphrase()))));
        SecurityModels models = new SecurityModels();
        models.addSecurityModel(usm);
        MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
        dispatcher.addMessageProcessingModel(new MPv2c());
        dispatcher.addMessageProcessingModel(new MPv3(engineId, new DefaultPDUFactory(), protocols, models,
                CounterSupport.getInstance()));
        snmp = new Snmp(dispatcher, transport);
        snmp.addCommandResponder(this);
        snmp.listen();
        LOG.info("{} answers SNMP on udp:{}:{} ({})", mib.name(), bindAddress.getHostAddress(), boundUdpPort(), access);
    }

    /** @return the UDP port actually bound (useful when 0 was requested) */
    public synchronized int boundUdpPort() {
        if (transport == null) {
            throw new IllegalStateException("endpoint " + mib.name() + " is not started");
        }
        return transport.getListenAddress().getPort();
    }

    /** @return the emulated node's or link's name */
    public String name() {
        return mib.name();
    }

    /** @return how many requests were answered so far */
    public long answeredRequests() {
        return answeredRequests.get();
    }

    /** @return how many requests were dropped (bad community, user or security level) */
    public long droppedRequests() {
        return droppedRequests.get();
    }

    @Override
    public synchronized void close() throws IOException {
        if (snmp != null) {
            snmp.close();
            snmp = null;
        }
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
        int budgetBytes = Math.max(484, maxResponseBytes) - RESPONSE_HEADER_ALLOWANCE_BYTES;
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
