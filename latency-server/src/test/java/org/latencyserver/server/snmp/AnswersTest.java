package org.latencyserver.server.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.snmp4j.PDU;
import org.snmp4j.smi.Counter32;
import org.snmp4j.smi.Counter64;
import org.snmp4j.smi.Gauge32;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.TimeTicks;
import org.snmp4j.smi.VariableBinding;

/** Garbage in an SNMP answer is a miss with a reason naming the OID, never a value. */
class AnswersTest {

    private static final OID IN = new OID("1.3.6.1.2.1.31.1.1.1.6.2");

    @Test
    void countersOfBothWidthsAreReadWithTheirWidth() throws Exception {
        assertEquals(new Answers.CounterValue(0xFFFF_FFFFL, 32), Answers.counter(new VariableBinding(IN, new Counter32(0xFFFF_FFFFL)), IN));
        assertEquals(new Answers.CounterValue(-1L, 64), Answers.counter(new VariableBinding(IN, new Counter64(-1L)), IN));
    }

    @Test
    void aStringWhereACounterBelongsIsRefusedNamingTheOidAndType() {
        final BadAnswerException e = assertThrows(BadAnswerException.class,
            () -> Answers.counter(new VariableBinding(IN, new OctetString("garbage")), IN));
        assertTrue(e.getMessage().contains(IN.toString()) && e.getMessage().contains("OCTET STRING"), e.getMessage());
    }

    @Test
    void aGaugeWhereACounterBelongsIsRefused() {
        assertThrows(BadAnswerException.class, () -> Answers.counter(new VariableBinding(IN, new Gauge32(5)), IN));
    }

    @Test
    void noSuchInstanceAndNoSuchObjectAreRefusedAsMissing() {
        final BadAnswerException e = assertThrows(BadAnswerException.class,
            () -> Answers.counter(new VariableBinding(IN, Null.noSuchInstance), IN));
        assertTrue(e.getMessage().contains("noSuchInstance"), e.getMessage());
        assertThrows(BadAnswerException.class, () -> Answers.timeTicks(new VariableBinding(IN, Null.noSuchObject), IN));
    }

    @Test
    void anAnswerForAnotherOidIsRefused() {
        assertThrows(BadAnswerException.class,
            () -> Answers.timeTicks(new VariableBinding(new OID("1.3.6.1.2.1.1.3.1"), new TimeTicks(5)), PolledSource.SYS_UP_TIME));
    }

    @Test
    void aTimeoutAnErrorStatusAndAShortAnswerAreRefused() {
        assertThrows(BadAnswerException.class, () -> Answers.checkResponse(null, 1));
        final PDU error = new PDU();
        error.setErrorStatus(PDU.genErr);
        assertThrows(BadAnswerException.class, () -> Answers.checkResponse(error, 0));
        final PDU shortAnswer = new PDU();
        shortAnswer.add(new VariableBinding(IN, new Counter64(1)));
        assertThrows(BadAnswerException.class, () -> Answers.checkResponse(shortAnswer, 3));
    }
}
