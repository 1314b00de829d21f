package org.latencyserver.server.snmp;

import org.snmp4j.PDU;
import org.snmp4j.Target;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.VariableBinding;

/**
 * A workstation's CPU from HOST-RESOURCES-MIB hrProcessorLoad (the agent's own one-minute average
 * per processor, percent), averaged over the processors: one GETBULK of up to
 * {@value #MAX_PROCESSORS} rows of the column.
 *
 * <p>Thread-safety: as {@link PolledSource}.
 */
final class HrProcessorLoadSource extends PolledSource {

    /** hrProcessorLoad column */
    static final OID HR_PROCESSOR_LOAD = new OID("1.3.6.1.2.1.25.3.3.1.2");
    private static final OID SYS_UP_TIME_COLUMN = new OID("1.3.6.1.2.1.1.3");
    /** more processors than this are not read */
    static final int MAX_PROCESSORS = 64;

    HrProcessorLoadSource(final String label, final Target<?> target, final int unknownAfterMissedPolls) {
        super(label, target, unknownAfterMissedPolls);
    }

    @Override
    PDU request() {
        final PDU pdu = SnmpTargets.newPdu(target());
        pdu.add(new VariableBinding(SYS_UP_TIME_COLUMN));
        pdu.add(new VariableBinding(HR_PROCESSOR_LOAD));
        pdu.setType(PDU.GETBULK);
        // sysUpTime is a non-repeater; GETBULK answers the successor of what is asked, so ask for its parent.
        pdu.setNonRepeaters(1);
        pdu.setMaxRepetitions(MAX_PROCESSORS);
        return pdu;
    }

    @Override
    int expectedBindings() {
        return 2;
    }

    @Override
    int interpret(final PDU response, final long nowNanos) throws BadAnswerException {
        checkUptime(response.get(0));
        long sum = 0;
        int processors = 0;
        for (int i = 1; i < response.size(); i++) {
            final VariableBinding binding = response.get(i);
            if (!binding.getOid().startsWith(HR_PROCESSOR_LOAD) || binding.isException()) {
                break;
            }
            final long load = Answers.gauge(binding, null);
            if (load < 0 || load > 100) {
                throw new BadAnswerException(binding.getOid() + ": hrProcessorLoad must be 0..100 %, was " + load);
            }
            sum += load;
            processors++;
        }
        if (processors == 0) {
            throw new BadAnswerException(HR_PROCESSOR_LOAD + ": the agent has no hrProcessorLoad rows");
        }
        return (int) Math.round((double) sum / processors);
    }

    @Override
    void restart() {
        // The agent averages itself; there is no baseline.
    }

    @Override
    void forget() {
        // Nothing is kept between polls.
    }
}
