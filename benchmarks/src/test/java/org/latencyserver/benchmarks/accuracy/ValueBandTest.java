package org.latencyserver.benchmarks.accuracy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValueBandTest {

    /** A read of a connection at a time in a port state, with an estimate of a source, basis and data time. */
    static BurstRecord read(final long epochMillis, final int portState, final String source, final String basis,
                            final long dataEpochMillis) {
        return new BurstRecord(epochMillis, 3, 3, "ws1", "ws2", 256, 11, portState, 11, portState, true, "", "AVERAGE", 1.0, 1.0,
            0, 0.5, 1.5, "ms", source, "", false, false, dataEpochMillis, new long[] {1_000_000}, basis, 11, portState);
    }

    @Test
    void aProfilesValueDescribesItsCellsBand() {
        assertArrayEquals(new int[] {96, 98}, ValueBand.profileBand("profile testbed-ports, cell 0-33/0-33 256 B, port 96–98 %, 256 B"
            + " for LOADED 98 %"));
        assertArrayEquals(new int[] {100, 100}, ValueBand.profileBand("profile p, port 100 %, 1024 B for LOADED 100 %"));
        assertArrayEquals(new int[] {0, 0}, ValueBand.profileBand("profile fallback (0-33/0-33 LOADED 98 % never measured): profile"
            + " measured-loopback-jacorb, cell 0-33/0-33 256 B"));
        assertNull(ValueBand.profileBand(""));
        final ValueBand bands = new ValueBand(List.of());
        assertEquals(ValueBand.Verdict.SAME, bands.judge(read(1, 98, "profile", "profile p, port 96–98 %, 256 B for LOADED 98 %", 0)));
        assertEquals(ValueBand.Verdict.OTHER, bands.judge(read(1, 100, "profile", "profile p, port 96–98 %, 256 B for LOADED 98 %", 0)));
        assertEquals(ValueBand.Verdict.OTHER, bands.judge(read(1, 95, "profile", "profile p, cell 0-33/0-33 256 B", 0)),
            "an idle port's cell (plus a queue model or not) is another band's value for a loaded port");
        assertEquals(ValueBand.Verdict.SAME, bands.judge(read(1, 0, "profile", "profile p, cell 0-33/0-33 256 B", 0)));
    }

    @Test
    void aMeasuredValueDescribesThePortAsTheApplicationReadItWhileItWasMeasured() {
        final List<BurstRecord> records = new ArrayList<>();
        for (long t = 0; t <= 20_000; t += 500) {
            records.add(read(t, t < 10_000 ? 98 : 101, "profile", "profile p, port 96–98 %, 256 B for LOADED 98 %", 0));
        }
        final ValueBand bands = new ValueBand(records);
        assertEquals(ValueBand.Verdict.SAME, bands.judge(read(9_000, 98, "measurement", "measurement ticket 4 by a, 0-33/0-33", 8_000)));
        assertEquals(ValueBand.Verdict.OTHER, bands.judge(read(19_000, 101, "previous state's measurement",
            "measurement ticket 4 by a, 0-33/0-33", 8_000)), "a SATURATED port served the 96-98 % band's measurement");
        assertEquals(ValueBand.Verdict.MIXED, bands.judge(read(19_000, 101, "remembered measurement", "the last measurement of …", 11_000)));
        assertEquals(ValueBand.Verdict.UNKNOWN, bands.judge(read(19_000, 101, "measurement", "", 60_000)), "no read then");
    }
}
