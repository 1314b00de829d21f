package org.latencyserver.core.estimate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.port.PortModel;
import org.latencyserver.core.port.ThesisQueuePortModel;
import org.latencyserver.core.profile.Layer;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileAssumptions;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.Provenance;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

/**
 * Test fixture: the thesis's Appendix A (average and maximum round trip, ms) read from the
 * profiles module's CSV copy, or — so latency-core tests run on their own — from the TAC-4 CORBA
 * rows embedded below. Profiles are built here directly, not through the JSON reader.
 */
public final class ThesisAppendixA {

    /** The profiles module's copy, relative to the latency-core module directory. */
    public static final Path CSV = Path.of("../profiles/data/thesis-appendix-a.csv");

    /** Samples per cell in Appendix A (thesis section 3.2: 10K per configuration). */
    public static final long SAMPLES_PER_CELL = 10_000;

    /** The thesis's assumed standard deviation for the QoS 1 interval, ms (section 4.2.4). */
    public static final double ASSUMED_STD_DEV_MILLIS = 5.0;

    /** TAC-4 CORBA rows of Appendix A, for when the CSV is not there. */
    private static final List<String> EMBEDDED_TAC4_CORBA = List.of(
        "TAC-4,CORBA,64,0-33,0-33,1.164,42.029",
        "TAC-4,CORBA,64,0-33,34-66,1.686,21.407",
        "TAC-4,CORBA,64,0-33,67-100,2.153,23.591",
        "TAC-4,CORBA,64,34-66,34-66,2.521,47.564",
        "TAC-4,CORBA,64,34-66,67-100,3.177,55.563",
        "TAC-4,CORBA,64,67-100,67-100,4.006,42.75",
        "TAC-4,CORBA,128,0-33,0-33,1.201,21.255",
        "TAC-4,CORBA,128,0-33,34-66,1.768,32.141",
        "TAC-4,CORBA,128,0-33,67-100,2.248,25.182",
        "TAC-4,CORBA,128,34-66,34-66,2.568,46.309",
        "TAC-4,CORBA,128,34-66,67-100,3.31,63.389",
        "TAC-4,CORBA,128,67-100,67-100,3.968,38.611",
        "TAC-4,CORBA,256,0-33,0-33,1.365,18.616",
        "TAC-4,CORBA,256,0-33,34-66,2.066,25.989",
        "TAC-4,CORBA,256,0-33,67-100,2.386,24.663",
        "TAC-4,CORBA,256,34-66,34-66,2.846,62.097",
        "TAC-4,CORBA,256,34-66,67-100,3.533,56.62",
        "TAC-4,CORBA,256,67-100,67-100,4.155,42.447",
        "TAC-4,CORBA,512,0-33,0-33,1.488,18.471",
        "TAC-4,CORBA,512,0-33,34-66,2.347,22.998",
        "TAC-4,CORBA,512,0-33,67-100,2.481,31.78",
        "TAC-4,CORBA,512,34-66,34-66,2.922,46.309",
        "TAC-4,CORBA,512,34-66,67-100,3.725,55.271",
        "TAC-4,CORBA,512,67-100,67-100,4.355,45.724",
        "TAC-4,CORBA,1024,0-33,0-33,1.717,21.88",
        "TAC-4,CORBA,1024,0-33,34-66,2.749,26.105",
        "TAC-4,CORBA,1024,0-33,67-100,3.22,24.273",
        "TAC-4,CORBA,1024,34-66,34-66,3.295,44.22",
        "TAC-4,CORBA,1024,34-66,67-100,4.433,63.029",
        "TAC-4,CORBA,1024,67-100,67-100,4.723,40.77",
        "TAC-4,CORBA,2048,0-33,0-33,1.805,13.12",
        "TAC-4,CORBA,2048,0-33,34-66,2.849,26.697",
        "TAC-4,CORBA,2048,0-33,67-100,3.343,27.233",
        "TAC-4,CORBA,2048,34-66,34-66,3.364,48.167",
        "TAC-4,CORBA,2048,34-66,67-100,4.511,75.038",
        "TAC-4,CORBA,2048,67-100,67-100,5.17,52.82",
        "TAC-4,CORBA,4096,0-33,0-33,2.422,23.514",
        "TAC-4,CORBA,4096,0-33,34-66,3.719,32.029",
        "TAC-4,CORBA,4096,0-33,67-100,4.244,25.881",
        "TAC-4,CORBA,4096,34-66,34-66,4.574,47.502",
        "TAC-4,CORBA,4096,34-66,67-100,5.626,63.767",
        "TAC-4,CORBA,4096,67-100,67-100,6.249,42.861",
        "TAC-4,CORBA,8192,0-33,0-33,3.771,199.555",
        "TAC-4,CORBA,8192,0-33,34-66,5.468,200.64",
        "TAC-4,CORBA,8192,0-33,67-100,5.93,199.957",
        "TAC-4,CORBA,8192,34-66,34-66,6.324,203.043",
        "TAC-4,CORBA,8192,34-66,67-100,8.093,199.996",
        "TAC-4,CORBA,8192,67-100,67-100,9.24,202.487");

    /**
     * One row of Appendix A.
     *
     * @param platform  TAC-3 or TAC-4
     * @param layer     CORBA or TCP
     * @param sizeBytes message size
     * @param sender    sender CPU band, e.g. "0-33"
     * @param receiver  receiver CPU band
     * @param avgMillis mean round trip, ms
     * @param maxMillis longest round trip, ms
     */
    public record Row(String platform, String layer, int sizeBytes, String sender, String receiver, double avgMillis,
                      double maxMillis) {
    }

    private ThesisAppendixA() {
    }

    /** @return every row available: the CSV's, or the embedded TAC-4 CORBA rows */
    public static List<Row> rows() {
        final List<String> lines;
        try {
            lines = Files.isRegularFile(CSV) ? Files.readAllLines(CSV) : EMBEDDED_TAC4_CORBA;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        final List<Row> rows = new ArrayList<>();
        for (final String line : lines) {
            if (line.isBlank() || line.startsWith("platform")) {
                continue;
            }
            final String[] f = line.split(",");
            rows.add(new Row(f[0], f[1], Integer.parseInt(f[2]), f[3], f[4], Double.parseDouble(f[5]), Double.parseDouble(f[6])));
        }
        return rows;
    }

    /**
     * @return the Appendix A mean for a row, ms, in the sender/receiver order the thesis printed
     * @throws AssertionError when there is no such row
     */
    public static double mean(final String platform, final String layer, final int size, final String sender,
                              final String receiver) {
        return rows().stream().filter(r -> r.platform().equals(platform) && r.layer().equals(layer) && r.sizeBytes() == size
                && r.sender().equals(sender) && r.receiver().equals(receiver))
            .findFirst().orElseThrow(() -> new AssertionError("no Appendix A row " + platform + " " + layer + " " + size
                + " B " + sender + "/" + receiver)).avgMillis();
    }

    /**
     * A profile of one platform and layer: n = 10,000, no standard deviations, the thesis's
     * assumed s = 5 ms, no histograms.
     *
     * @param platform  TAC-3 or TAC-4
     * @param layer     CORBA or TCP
     * @param portModel the port model
     * @return the profile
     */
    public static Profile profile(final String platform, final String layer, final PortModel portModel) {
        final List<ProfileCell> cells = new ArrayList<>();
        for (final Row row : rows()) {
            if (row.platform().equals(platform) && row.layer().equals(layer)) {
                cells.add(new ProfileCell(new CpuStatePair(CpuState.parse(row.sender()), CpuState.parse(row.receiver())),
                    row.sizeBytes(), SAMPLES_PER_CELL, row.avgMillis(), null, row.maxMillis(), null));
            }
        }
        return new Profile("appendix-a-" + platform + "-" + layer, platform, Layer.valueOf(layer),
            new Provenance("thesis Appendix A", null, null, null, null, null),
            new ProfileAssumptions(ASSUMED_STD_DEV_MILLIS, "thesis section 4.2.4"), portModel, cells);
    }

    /** @return the TAC-4 CORBA profile with the thesis's queue model */
    public static Profile tac4Corba() {
        return profile("TAC-4", "CORBA", ThesisQueuePortModel.INSTANCE);
    }
}
