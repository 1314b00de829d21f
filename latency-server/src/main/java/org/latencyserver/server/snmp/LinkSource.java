package org.latencyserver.server.snmp;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snmp4j.PDU;
import org.snmp4j.Target;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.VariableBinding;

/**
 * A switch port from IF-MIB: ifHCInOctets/ifHCOutOctets of its ifIndex against ifHighSpeed (read
 * from the agent at every poll) or a configured speed, and, when configured, a counter of the
 * packets the port dropped: moving while the port carries its rate, it makes the port SATURATED
 * (reported as {@link org.latencyserver.core.state.PortState#SATURATED_CODE}). A discards answer that
 * is missing or not a counter leaves saturation unobserved for that poll (logged) and never costs
 * the port its utilisation.
 *
 * <p>Thread-safety: as {@link PolledSource}.
 */
final class LinkSource extends CounterSource<PortUtilisation> {

    private static final Logger LOG = LoggerFactory.getLogger(LinkSource.class);
    private static final String IF_X_ENTRY = "1.3.6.1.2.1.31.1.1.1.";
    /** a port cached by the agent looks idle only after its counters stood still this long */
    static final long IDLE_AFTER_NANOS = 10_000_000_000L;

    private final OID inOctets;
    private final OID outOctets;
    private final OID highSpeed;
    private final OID discards;
    private final long configuredSpeedMbps;

    /**
     * @param speedMbps   the configured speed, or 0 to read ifHighSpeed
     * @param discardsOid a counter of the port's dropped packets, or null
     */
    LinkSource(final String label, final Target<?> target, final int unknownAfterMissedPolls, final int ifIndex,
               final long speedMbps, final String discardsOid) {
        super(label, target, unknownAfterMissedPolls, new PortUtilisation(IDLE_AFTER_NANOS));
        this.inOctets = new OID(IF_X_ENTRY + "6." + ifIndex);
        this.outOctets = new OID(IF_X_ENTRY + "10." + ifIndex);
        this.highSpeed = new OID(IF_X_ENTRY + "15." + ifIndex);
        this.discards = discardsOid == null ? null : new OID(discardsOid.startsWith(".") ? discardsOid.substring(1) : discardsOid);
        this.configuredSpeedMbps = speedMbps;
    }

    @Override
    PDU request() {
        final PDU pdu = SnmpTargets.newPdu(target());
        pdu.add(new VariableBinding(SYS_UP_TIME));
        pdu.add(new VariableBinding(inOctets));
        pdu.add(new VariableBinding(outOctets));
        if (configuredSpeedMbps == 0) {
            pdu.add(new VariableBinding(highSpeed));
        }
        if (discards != null) {
            pdu.add(new VariableBinding(discards));
        }
        pdu.setType(PDU.GET);
        return pdu;
    }

    @Override
    int expectedBindings() {
        return 3 + (configuredSpeedMbps == 0 ? 1 : 0) + (discards != null ? 1 : 0);
    }

    @Override
    int interpret(final PDU response, final long nowNanos) throws BadAnswerException {
        checkUptime(response.get(0));
        final Answers.CounterValue in = Answers.counter(response.get(1), inOctets);
        final Answers.CounterValue out = Answers.counter(response.get(2), outOctets);
        if (in.bits() != out.bits()) {
            throw new BadAnswerException(inOctets + " and " + outOctets + ": counters of different widths");
        }
        final long speedMbps = configuredSpeedMbps != 0 ? configuredSpeedMbps : Answers.gauge(response.get(3), highSpeed);
        if (speedMbps <= 0) {
            throw new BadAnswerException(highSpeed + ": ifHighSpeed is " + speedMbps
                + " Mbit/s; configure snmp.speed_mbps for this link");
        }
        Answers.CounterValue dropped = null;
        if (discards != null) {
            try {
                dropped = Answers.counter(response.get(expectedBindings() - 1), discards);
            } catch (BadAnswerException e) {
                LOG.warn("{}: discards_oid unreadable, saturation not observed: {}", label(), e.getMessage());
            }
        }
        return utilisation().update(in.value(), out.value(), in.bits(), speedMbps, nowNanos,
            dropped == null ? PortUtilisation.NO_DISCARDS : dropped.value(), dropped == null ? 64 : dropped.bits());
    }
}
