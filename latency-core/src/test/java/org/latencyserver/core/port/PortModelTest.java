package org.latencyserver.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PortModelTest {

    /** The profiles module's copy of the thesis's Table 3.6.2-1 (relative to the latency-core module). */
    private static final Path TABLE_CSV = Path.of("../profiles/data/thesis-tcp-port-loading.csv");

    /**
     * The table as the CSV holds it, read independently of the model; the thesis's printed rows
     * when the CSV is not there (latency-core must build on its own).
     */
    private static List<MeasuredTablePortModel.Row> table() throws IOException {
        if (!Files.isRegularFile(TABLE_CSV)) {
            return List.of(
                new MeasuredTablePortModel.Row(1024, 0, 968), new MeasuredTablePortModel.Row(1024, 95, 1339),
                new MeasuredTablePortModel.Row(1024, 98, 3940), new MeasuredTablePortModel.Row(2048, 0, 1196),
                new MeasuredTablePortModel.Row(2048, 95, 2562), new MeasuredTablePortModel.Row(2048, 98, 7616),
                new MeasuredTablePortModel.Row(4096, 0, 1643), new MeasuredTablePortModel.Row(4096, 95, 5161),
                new MeasuredTablePortModel.Row(4096, 98, 15054), new MeasuredTablePortModel.Row(8192, 0, 2688),
                new MeasuredTablePortModel.Row(8192, 95, 12341), new MeasuredTablePortModel.Row(8192, 98, 37028));
        }
        final List<MeasuredTablePortModel.Row> rows = new ArrayList<>();
        for (final String line : Files.readAllLines(TABLE_CSV)) {
            if (line.isBlank() || line.startsWith("message_size_bytes")) {
                continue;
            }
            final String[] f = line.split(",");
            rows.add(new MeasuredTablePortModel.Row(Integer.parseInt(f[0].trim()), Integer.parseInt(f[1].trim()),
                Double.parseDouble(f[2].trim())));
        }
        return rows;
    }

    private static double tableMicros(final int size, final int load) throws IOException {
        return table().stream().filter(r -> r.messageSizeBytes() == size && r.portLoadPercent() == load)
            .findFirst().orElseThrow(() -> new AssertionError("no table row " + size + " B at " + load + " %"))
            .avgRoundTripMicros();
    }

    @ParameterizedTest(name = "{0} % adds {1} ms")
    @CsvSource({"91, 1.0", "95, 1.667", "98, 3.333", "100, 10.0"})
    void thesisQueueModelAddsOneOverOneMinusTheNetworkLoad(final int utilisationPercent, final double thesisRoundedMillis) {
        // Thesis section 4.2.3, constraint 4: 1/(1 - load), load = (u - 91)/10.
        final double closedForm = 1.0 / (1.0 - (utilisationPercent - 91) / 10.0);
        final PortContribution added = ThesisQueuePortModel.INSTANCE.contribution(utilisationPercent, 256);
        assertEquals(closedForm, added.millis(), 1e-12);
        assertEquals(thesisRoundedMillis, added.millis(), 5e-4, "the figure to three decimals");
        assertFalse(added.extrapolated());
        assertTrue(added.basis().contains("thesis queue model at " + utilisationPercent + " %"), added.basis());
    }

    @ParameterizedTest(name = "{0} %")
    @ValueSource(ints = {0, 50, 89, 90})
    void noPortContributionAtOrBelowNinetyPercent(final int utilisationPercent) {
        assertSame(PortContribution.NONE, ThesisQueuePortModel.INSTANCE.contribution(utilisationPercent, 8192));
        assertSame(PortContribution.NONE, MeasuredTablePortModel.thesisTable3_6_2_1().contribution(utilisationPercent, 1024));
        assertEquals(0.0, PortContribution.NONE.millis());
    }

    @Test
    void thesisModelIgnoresMessageSize() {
        assertEquals(ThesisQueuePortModel.INSTANCE.contribution(95, 64).millis(),
            ThesisQueuePortModel.INSTANCE.contribution(95, 8192).millis());
    }

    @Test
    void thesisTableHoldsExactlyTheRowsOfTable3621() throws IOException {
        final List<MeasuredTablePortModel.Row> expected = new ArrayList<>(table());
        expected.sort((a, b) -> a.messageSizeBytes() != b.messageSizeBytes()
            ? Integer.compare(a.messageSizeBytes(), b.messageSizeBytes()) : Integer.compare(a.portLoadPercent(), b.portLoadPercent()));
        assertEquals(expected, MeasuredTablePortModel.thesisTable3_6_2_1().rows());
        assertEquals(12, expected.size(), "4 sizes x 3 loads");
    }

    @ParameterizedTest(name = "{0} B at {1} %")
    @CsvSource({"1024, 95", "1024, 98", "8192, 95", "8192, 98", "2048, 98", "4096, 95"})
    void measuredTableAddsTheDifferenceToTheUnloadedRoundTrip(final int size, final int load) throws IOException {
        final PortContribution added = MeasuredTablePortModel.thesisTable3_6_2_1().contribution(load, size);
        assertEquals((tableMicros(size, load) - tableMicros(size, 0)) / 1000.0, added.millis(), 1e-9);
        assertFalse(added.extrapolated());
    }

    @Test
    void measuredTableInterpolatesLinearlyBetweenLoadsAndSizes() throws IOException {
        final MeasuredTablePortModel model = MeasuredTablePortModel.thesisTable3_6_2_1();
        final double at95for1k = (tableMicros(1024, 95) - tableMicros(1024, 0)) / 1000.0;
        // 93 % lies three fifths of the way from 90 % (nothing added) to 95 %.
        assertEquals(at95for1k * 3 / 5, model.contribution(93, 1024).millis(), 1e-9);
        final double at98for1k = (tableMicros(1024, 98) - tableMicros(1024, 0)) / 1000.0;
        assertEquals(at95for1k + (at98for1k - at95for1k) / 3, model.contribution(96, 1024).millis(), 1e-9);
        // 3 KB lies half way between the 2 KB and 4 KB rows.
        final double twoK = (tableMicros(2048, 95) - tableMicros(2048, 0)) / 1000.0;
        final double fourK = (tableMicros(4096, 95) - tableMicros(4096, 0)) / 1000.0;
        final PortContribution threeK = model.contribution(95, 3072);
        assertEquals((twoK + fourK) / 2, threeK.millis(), 1e-9);
        assertFalse(threeK.extrapolated());
    }

    @Test
    void measuredTableFlagsExtrapolationBeyondItsLoadsAndSizes() throws IOException {
        final MeasuredTablePortModel model = MeasuredTablePortModel.thesisTable3_6_2_1();
        final PortContribution beyondLoad = model.contribution(100, 1024);
        assertTrue(beyondLoad.extrapolated());
        final double at95 = (tableMicros(1024, 95) - tableMicros(1024, 0)) / 1000.0;
        final double at98 = (tableMicros(1024, 98) - tableMicros(1024, 0)) / 1000.0;
        // The 95-98 % segment extended two more points.
        assertEquals(at98 + (at98 - at95) * 2 / 3, beyondLoad.millis(), 1e-9);
        final PortContribution smallMessage = model.contribution(95, 256);
        assertTrue(smallMessage.extrapolated());
        assertEquals(at95, smallMessage.millis(), 1e-9, "below the smallest size: the nearest size's figure");
        assertTrue(smallMessage.basis().contains("extrapolated"), smallMessage.basis());
        final PortContribution largeMessage = model.contribution(95, 65_536);
        assertTrue(largeMessage.extrapolated());
        assertEquals((tableMicros(8192, 95) - tableMicros(8192, 0)) / 1000.0, largeMessage.millis(), 1e-9);
    }

    @Test
    void badUtilisationsSizesAndTablesAreRefusedWithTheValue() {
        final IllegalArgumentException over = assertThrows(IllegalArgumentException.class,
            () -> ThesisQueuePortModel.INSTANCE.contribution(101, 64));
        assertTrue(over.getMessage().contains("101"), over.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ThesisQueuePortModel.INSTANCE.contribution(-1, 64));
        assertThrows(IllegalArgumentException.class, () -> MeasuredTablePortModel.thesisTable3_6_2_1().contribution(95, 0));
        final IllegalArgumentException noBaseline = assertThrows(IllegalArgumentException.class,
            () -> MeasuredTablePortModel.of(List.of(new MeasuredTablePortModel.Row(1024, 95, 1339))));
        assertTrue(noBaseline.getMessage().contains("0 % row"), noBaseline.getMessage());
        final IllegalArgumentException duplicate = assertThrows(IllegalArgumentException.class, () -> MeasuredTablePortModel.of(List.of(
            new MeasuredTablePortModel.Row(1024, 0, 968), new MeasuredTablePortModel.Row(1024, 0, 970),
            new MeasuredTablePortModel.Row(1024, 95, 1339))));
        assertTrue(duplicate.getMessage().contains("duplicate"), duplicate.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MeasuredTablePortModel.of(List.of(
            new MeasuredTablePortModel.Row(1024, 0, 968), new MeasuredTablePortModel.Row(1024, 80, 1000))));
        assertThrows(IllegalArgumentException.class, () -> new PortContribution(-0.1, "x", false));
        assertThrows(IllegalArgumentException.class, () -> new PortContribution(Double.NaN, "x", false));
    }

    @Test
    void modelsWithTheSameRowsAreEqual() {
        assertEquals(MeasuredTablePortModel.thesisTable3_6_2_1(), MeasuredTablePortModel.of(
            new ArrayList<>(MeasuredTablePortModel.thesisTable3_6_2_1().rows())));
        assertEquals("measured-table", MeasuredTablePortModel.thesisTable3_6_2_1().kind());
        assertEquals("thesis-queue", ThesisQueuePortModel.INSTANCE.kind());
    }
}
