package org.latencyserver.server.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.latencyserver.server.engine.Refusal;

/** Checks chain in order; the first refusal ends the chain and later checks do not run. */
class CheckedTest {

    private static final Refusal TOO_LARGE = Refusal.of(Refusal.Kind.TOO_LARGE, "histogram has 20001 bins");

    @Test
    void aPassingChainHandsOnItsConvertedValue() {
        final Checked<Integer> checked = Checked.passed("12").check(text -> Optional.empty()).then(text -> Checked.passed(
            Integer.parseInt(text))).map(n -> n * 2);
        assertFalse(checked.isRefused());
        assertEquals(24, checked.value());
    }

    @Test
    void theFirstRefusalEndsTheChain() {
        final AtomicInteger later = new AtomicInteger();
        final Checked<String> checked = Checked.passed("x").check(text -> Optional.of(TOO_LARGE))
            .check(text -> {
                later.incrementAndGet();
                return Optional.of(Refusal.of(Refusal.Kind.BAD_VALUE, "later"));
            })
            .then(text -> {
                later.incrementAndGet();
                return Checked.passed(text);
            });
        assertTrue(checked.isRefused());
        assertSame(TOO_LARGE, checked.refusal());
        assertEquals(0, later.get());
    }

    @Test
    void aPrefixIsPutBeforeARefusalOnly() {
        assertEquals("result for connection 3 refused: histogram has 20001 bins",
            Checked.<String>refused(TOO_LARGE).refusalPrefixed("result for connection 3 refused: ").refusal().message());
        assertEquals("x", Checked.passed("x").refusalPrefixed("ignored: ").value());
        assertEquals(Refusal.Kind.TOO_LARGE, Checked.unless(Optional.of(TOO_LARGE), "x").refusal().kind());
        assertEquals("x", Checked.unless(Optional.empty(), "x").value());
    }
}
