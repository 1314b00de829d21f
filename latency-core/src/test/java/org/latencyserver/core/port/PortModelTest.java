package org.latencyserver.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PortModelTest {

    @ParameterizedTest(name = "{0} % adds {1} ms")
    @CsvSource({"91, 1.0", "95, 1.6666666666666667", "98, 3.3333333333333335", "100, 10.0"})
    void thesisQueueModelAddsOneOverOneMinusLoad(final int utilisationPercent, final double expectedMillis) {
        final double load = (utilisationPercent - 91) / 10.0;
        assertEquals(1.0 / (1.0 - load), expectedMillis, 1e-12, "closed form");
        assertEquals(expectedMillis, ThesisQueuePortModel.INSTANCE.contribution(utilisationPercent, 256).millis(), 1e-12);
    }

    @Test
    void noPortContributionAtOrBelowNinetyPercent() {
        assertSame(PortContribution.NONE, ThesisQueuePortModel.INSTANCE.contribution(90, 8192));
        assertSame(PortContribution.NONE, MeasuredTablePortModel.thesisTable3621().contribution(0, 1024));
    }

    @Test
    void thesisModelIgnoresMessageSize() {
        assertEquals(ThesisQueuePortModel.INSTANCE.contribution(95, 64).millis(),
            ThesisQueuePortModel.INSTANCE.contribution(95, 8192).millis());
    }

    @ParameterizedTest(name = "{0} B at {1} %: {2} - {3} us")
    @CsvSource({"1024, 95, 1339, 968", "1024, 98, 3940, 968", "8192, 95, 12341, 2688", "8192, 98, 37028, 2688"})
    void measuredTableAddsTheDifferenceToTheUnloadedRoundTrip(final int size, final int load,
                                                              final double loadedMicros, final double unloadedMicros) {
        final PortContribution added = MeasuredTablePortModel.thesisTable3621().contribution(load, size);
        assertEquals((loadedMicros - unloadedMicros) / 1000.0, added.millis(), 1e-9);
        assertFalse(added.extrapolated());
    }

    @Test
    void measuredTableInterpolatesBetweenLoadsAndSizes() {
        final MeasuredTablePortModel table = MeasuredTablePortModel.thesisTable3621();
        // Half way from 90 % (0 added) to 95 % at 1 KB: half of 0.371 ms, at 93 % three fifths.
        assertEquals(0.371 * 3 / 5, table.contribution(93, 1024).millis(), 1e-9);
        // 3 KB lies half way between the 2 KB and 4 KB rows.
        final double twoK = (2562 - 1196) / 1000.0;
        final double fourK = (5161 - 1643) / 1000.0;
        assertEquals((twoK + fourK) / 2, table.contribution(95, 3072).millis(), 1e-9);
    }

    @Test
    void measuredTableFlagsExtrapolationBeyondItsLoadsAndSizes() {
        final MeasuredTablePortModel table = MeasuredTablePortModel.thesisTable3621();
        final PortContribution beyondLoad = table.contribution(100, 1024);
        assertTrue(beyondLoad.extrapolated());
        // The 95-98 % segment at 1 KB rises 2.601 ms over 3 points; two more points beyond 98 %.
        assertEquals(2.972 + 2.601 * 2 / 3, beyondLoad.millis(), 1e-9);
        final PortContribution smallMessage = table.contribution(95, 256);
        assertTrue(smallMessage.extrapolated());
        assertEquals(0.371, smallMessage.millis(), 1e-9);
        assertTrue(smallMessage.basis().contains("extrapolated"));
    }

    @Test
    void badUtilisationAndBadTablesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ThesisQueuePortModel.INSTANCE.contribution(101, 64));
        assertThrows(IllegalArgumentException.class, () -> ThesisQueuePortModel.INSTANCE.contribution(-1, 64));
        final IllegalArgumentException noBaseline = assertThrows(IllegalArgumentException.class,
            () -> MeasuredTablePortModel.of(List.of(new MeasuredTablePortModel.Row(1024, 95, 1339))));
        assertTrue(noBaseline.getMessage().contains("0 % row"), noBaseline.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MeasuredTablePortModel.of(List.of(
            new MeasuredTablePortModel.Row(1024, 0, 968), new MeasuredTablePortModel.Row(1024, 0, 970),
            new MeasuredTablePortModel.Row(1024, 95, 1339))));
    }
}
