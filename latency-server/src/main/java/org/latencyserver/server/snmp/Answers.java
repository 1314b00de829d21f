package org.latencyserver.server.snmp;

import org.snmp4j.PDU;
import org.snmp4j.smi.Counter32;
import org.snmp4j.smi.Counter64;
import org.snmp4j.smi.Gauge32;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.TimeTicks;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;

/**
 * Reads typed values out of an SNMP response, refusing anything else with a
 * {@link BadAnswerException} that names the OID: the poller never guesses at garbage.
 *
 * <p>Stateless; thread-safe.
 */
public final class Answers {

    private Answers() {
    }

    /**
     * A counter's value and width.
     *
     * <p>Immutable and thread-safe.
     *
     * @param value the unsigned value in a long (Counter64: its bit pattern)
     * @param bits  32 or 64
     */
    public record CounterValue(long value, int bits) {
    }

    /**
     * @param response the response PDU, or null after a timeout
     * @param expected how many bindings the request asked for
     * @throws BadAnswerException on a timeout, an error status or a short answer
     */
    public static void checkResponse(final PDU response, final int expected) throws BadAnswerException {
        if (response == null) {
            throw new BadAnswerException("no answer (timeout)");
        }
        if (response.getErrorStatus() != PDU.noError) {
            throw new BadAnswerException("error status " + response.getErrorStatusText() + " at binding "
                + response.getErrorIndex());
        }
        if (response.size() < expected) {
            throw new BadAnswerException("answer has " + response.size() + " values, " + expected + " were asked for");
        }
    }

    /**
     * @param binding  the binding
     * @param expected the OID asked for
     * @return whether the agent has no such object or instance
     * @throws BadAnswerException when the binding is for another OID
     */
    public static boolean isMissing(final VariableBinding binding, final OID expected) throws BadAnswerException {
        if (!binding.getOid().equals(expected)) {
            throw new BadAnswerException("answer for " + binding.getOid() + " where " + expected + " was asked for");
        }
        return binding.getVariable() == null || binding.isException();
    }

    /**
     * @param binding  a binding expected to hold a Counter32 or Counter64
     * @param expected the OID asked for
     * @return its value and width
     * @throws BadAnswerException on noSuchObject/noSuchInstance, another OID or another type
     */
    public static CounterValue counter(final VariableBinding binding, final OID expected) throws BadAnswerException {
        final Variable variable = present(binding, expected);
        if (variable instanceof Counter64 c64) {
            return new CounterValue(c64.getValue(), 64);
        }
        if (variable instanceof Counter32 c32) {
            return new CounterValue(c32.getValue(), 32);
        }
        throw wrongType(expected, variable, "Counter32 or Counter64");
    }

    /**
     * @param binding  a binding expected to hold TimeTicks (sysUpTime)
     * @param expected the OID asked for
     * @return its value, hundredths of a second
     * @throws BadAnswerException on noSuchObject/noSuchInstance, another OID or another type
     */
    public static long timeTicks(final VariableBinding binding, final OID expected) throws BadAnswerException {
        final Variable variable = present(binding, expected);
        if (variable instanceof TimeTicks ticks) {
            return ticks.getValue();
        }
        throw wrongType(expected, variable, "TimeTicks");
    }

    /**
     * @param binding  a binding expected to hold a Gauge32 or Integer32 (ifHighSpeed, hrProcessorLoad)
     * @param expected the OID asked for, or null to accept any
     * @return its value
     * @throws BadAnswerException on noSuchObject/noSuchInstance, another OID or another type
     */
    public static long gauge(final VariableBinding binding, final OID expected) throws BadAnswerException {
        final Variable variable = expected == null ? binding.getVariable() : present(binding, expected);
        final OID oid = expected == null ? binding.getOid() : expected;
        if (variable instanceof Gauge32 gauge) {
            return gauge.getValue();
        }
        if (variable instanceof Integer32 integer) {
            return integer.getValue();
        }
        throw wrongType(oid, variable, "Gauge32 or Integer32");
    }

    private static Variable present(final VariableBinding binding, final OID expected) throws BadAnswerException {
        if (isMissing(binding, expected)) {
            throw new BadAnswerException(expected + ": " + (binding.getVariable() == null ? "no value" : binding.getVariable()));
        }
        return binding.getVariable();
    }

    private static BadAnswerException wrongType(final OID oid, final Variable variable, final String wanted) {
        return new BadAnswerException(oid + ": " + wanted + " expected, got " + (variable == null ? "nothing"
            : variable.getSyntaxString() + " " + variable));
    }
}
