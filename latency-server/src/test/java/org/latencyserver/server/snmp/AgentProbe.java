package org.latencyserver.server.snmp;

import java.io.IOException;
import java.net.InetAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.latencyserver.server.config.SnmpAccess;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.Target;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.mp.MPv3;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.USM;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * A test's own SNMP v3 GET requests to an agent, beside the poller's: to see what the agent
 * answers, and to know it is up before the poller starts. The target and user come from an snmp
 * block, as the poller's do.
 *
 * <p>Not thread-safe: one test thread asks.
 */
final class AgentProbe implements AutoCloseable {

    private final Snmp snmp;
    private final Target<?> target;

    /**
     * @param access      a v3 snmp block (authPriv)
     * @param environment its secrets, by the environment variable names it gives
     * @throws IOException when the UDP socket cannot be opened
     */
    AgentProbe(final SnmpAccess access, final Function<String, String> environment) throws IOException {
        final USM usm = SnmpPoller.newUsm();
        final MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
        dispatcher.addMessageProcessingModel(new MPv3(usm));
        snmp = new Snmp(dispatcher, new DefaultUdpTransportMapping(new UdpAddress(InetAddress.getLoopbackAddress(), 0)));
        target = SnmpTargets.target(access, environment, usm);
        snmp.listen();
    }

    /** @return the agent's target, authPriv, as the poller's sources have it */
    Target<?> target() {
        return target;
    }

    /**
     * One GET, authPriv.
     *
     * @param oids what to ask for
     * @return the answer, or null when none came within the block's timeout and retries
     */
    PDU get(final OID... oids) throws IOException {
        return get(target, oids);
    }

    /**
     * One GET at authNoPriv (the same user, authenticated but not encrypted).
     *
     * @param oids what to ask for
     * @return the answer, or null when none came
     */
    PDU getWithoutPrivacy(final OID... oids) throws IOException {
        final Target<?> authOnly = target.duplicate();
        authOnly.setSecurityLevel(SecurityLevel.AUTH_NOPRIV);
        return get(authOnly, oids);
    }

    /**
     * Asks for sysUpTime.0 until the agent answers it (it has read its configuration and bound its
     * address).
     *
     * @param timeoutSeconds how long at most
     * @return the answer
     * @throws AssertionError when none came in time
     */
    PDU awaitSysUpTime(final long timeoutSeconds) throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            final PDU answer = get(PolledSource.SYS_UP_TIME);
            if (answer != null) {
                return answer;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no answer to sysUpTime.0 within " + timeoutSeconds + " s from " + target.getAddress());
    }

    private <A extends Address> PDU get(final Target<A> to, final OID... oids) throws IOException {
        final PDU request = SnmpTargets.newPdu(to);
        for (final OID oid : oids) {
            request.add(new VariableBinding(oid));
        }
        request.setType(PDU.GET);
        final ResponseEvent<A> event = snmp.send(request, to);
        return event.getResponse();
    }

    @Override
    public void close() throws IOException {
        snmp.close();
    }
}
