package org.latencyserver.server.snmp;

import org.snmp4j.PDU;
import org.snmp4j.Target;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.VariableBinding;

/**
 * A workstation's CPU from net-snmp's UCD-SNMP-MIB raw tick counters (ssCpuRaw*). user, nice,
 * system and idle are required; wait, kernel and interrupt are used when the agent has them.
 *
 * <p>Thread-safety: as {@link PolledSource}.
 */
final class UcdCpuSource extends CounterSource<CpuUtilisation> {

    private static final String SS_CPU_RAW = "1.3.6.1.4.1.2021.11.";
    private static final OID[] RAW = {new OID(SS_CPU_RAW + "50.0"), new OID(SS_CPU_RAW + "51.0"),
        new OID(SS_CPU_RAW + "52.0"), new OID(SS_CPU_RAW + "53.0"), new OID(SS_CPU_RAW + "54.0"),
        new OID(SS_CPU_RAW + "55.0"), new OID(SS_CPU_RAW + "56.0")};
    private static final int REQUIRED = 4;

    UcdCpuSource(final String label, final Target<?> target, final int unknownAfterMissedPolls) {
        super(label, target, unknownAfterMissedPolls, new CpuUtilisation());
    }

    @Override
    PDU request() {
        final PDU pdu = SnmpTargets.newPdu(target());
        pdu.add(new VariableBinding(SYS_UP_TIME));
        for (final OID oid : RAW) {
            pdu.add(new VariableBinding(oid));
        }
        pdu.setType(PDU.GET);
        return pdu;
    }

    @Override
    int expectedBindings() {
        return 1 + RAW.length;
    }

    @Override
    int interpret(final PDU response, final long nowNanos) throws BadAnswerException {
        checkUptime(response.get(0));
        final long[] ticks = new long[RAW.length];
        for (int i = 0; i < RAW.length; i++) {
            final VariableBinding binding = response.get(1 + i);
            if (i >= REQUIRED && Answers.isMissing(binding, RAW[i])) {
                continue;
            }
            final Answers.CounterValue counter = Answers.counter(binding, RAW[i]);
            if (counter.bits() != 32) {
                throw new BadAnswerException(RAW[i] + ": ssCpuRaw counters are Counter32, got Counter64");
            }
            ticks[i] = counter.value();
        }
        return utilisation().update(new CpuTicks(ticks[0], ticks[1], ticks[2], ticks[3], ticks[4], ticks[5], ticks[6]),
            nowNanos);
    }
}
