package org.latencyserver.benchmarks.accuracy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QuietMachineTest {

    private final QuietMachine machine = new QuietMachine(1.0, List.of("lt-acc-", "lt-accp-"));

    @Test
    void otherTestbedsNamespacesCountAndThisRunsOwnDoNot() {
        final QuietMachine.Reading reading = machine.reading("lt-pw-ws1 (id: 3)\nlt-acc-srv (id: 0)\nlt-accp-ws2\nmy-ns\nlt-rp-sw1\n", 0.3);
        assertEquals(List.of("lt-pw-ws1", "lt-rp-sw1"), reading.otherNamespaces());
        assertTrue(machine.busy(reading).orElseThrow().contains("[lt-pw-ws1, lt-rp-sw1]"));
    }

    @Test
    void quietIsNoOtherTestbedAndALoadAverageBelowTheLimit() {
        assertEquals(Optional.empty(), machine.busy(machine.reading("", 0.99)));
        assertEquals(Optional.empty(), machine.busy(machine.reading("lt-acc-ws1\n", 0.2)));
        final String busy = machine.busy(machine.reading("", 1.0)).orElseThrow();
        assertTrue(busy.contains("1.00") && busy.contains("not below 1.00"), busy);
        final String both = machine.busy(machine.reading("lt-x-srv\n", 2.5)).orElseThrow();
        assertTrue(both.contains("lt-x-srv") && both.contains("2.50"), both);
    }
}
