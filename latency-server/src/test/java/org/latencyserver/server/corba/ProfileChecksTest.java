package org.latencyserver.server.corba;

import org.latencyserver.server.engine.ProbeShapes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.idl.latency.ProfileRejected;
import org.latencyserver.idl.latency.ResultRefused;
import org.latencyserver.server.config.ConfigurationException;
import org.latencyserver.server.config.ConfigurationLoader;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.config.TestProfiles;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.EngineProxy;
import org.latencyserver.server.engine.InputLimits;
import org.latencyserver.server.engine.ProfileInstaller;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.persistence.LoadedProfiles;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;

/**
 * One validation path for profiles: a profile that start-up refuses for a connection is
 * refused by {@code load_profile} with the same words, and one that was loaded before a restart is set
 * aside at start by the same check. Also the size limits the servant checks before building anything:
 * profile bytes, histogram bins, batch means.
 */
class ProfileChecksTest {

    @TempDir
    Path directory;

    private final List<EngineLoop> loops = new ArrayList<>();

    @AfterEach
    void stopLoops() {
        loops.forEach(EngineLoop::close);
    }

    /** ws1, ws2 (TAC-4); 1: QoS 1 on thesis-tac4-corba; 2: QoS 2 at 96 % on measured-tac4; 3: QoS 3 measured. */
    private String configuration(final String limits, final String tac4File, final String measuredFile) {
        return limits
            + "profiles:\n  - " + tac4File + "\n  - " + measuredFile + "\n"
            + "nodes:\n"
            + "  - { name: ws1, node_id: 1, workstation_type: TAC-4 }\n"
            + "  - { name: ws2, node_id: 2, workstation_type: TAC-4 }\n"
            + "connections:\n"
            + "  - { index_ref: 1, client: ws1, peer: ws2, message_size_bytes: 256, qos: 1, profile: thesis-tac4-corba }\n"
            + "  - { index_ref: 2, client: ws1, peer: ws2, message_size_bytes: 256, qos: 2, bound_percent: 96,"
            + " profile: measured-tac4 }\n"
            + "  - { index_ref: 3, client: ws1, peer: ws2, message_size_bytes: 256, qos: 3 }\n";
    }

    private Path writeGoodProfiles() throws Exception {
        Files.copy(Path.of("../profiles/thesis-tac4-corba.json"), directory.resolve("tac4.json"));
        ProfileJson.write(TestProfiles.tenBins("measured-tac4", "TAC-4", 100_000L, true), directory.resolve("measured.json"));
        return Files.writeString(directory.resolve("server.yaml"), configuration("", "tac4.json", "measured.json"));
    }

    /**
     * Writes the good profiles and loads a configuration with a 4096-byte profile limit that loads only the measured
     * profile (connection 1 measured instead of served from the thesis profile), so the thesis file is too large to load.
     */
    private ServerConfiguration smallProfileLimit() throws Exception {
        writeGoodProfiles();
        return ConfigurationLoader.load(Files.writeString(directory.resolve("small.yaml"),
            configuration("limits:\n  max_profile_bytes: 4096\n", "measured.json", "measured.json")
                .replace("  - measured.json\n  - measured.json\n", "  - measured.json\n")
                .replace("qos: 1, profile: thesis-tac4-corba", "qos: 3")));
    }

    /** A server as LatencyServerNode builds it, without the ORB. */
    private LatencyServiceServant servant(final ServerConfiguration configuration) {
        final List<ConnectionRow> rows = configuration.connectionSpecs().stream().map(spec -> ConnectionRow.initial(spec, 0)).toList();
        final AtomicLong tickets = new AtomicLong(100);
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(rows), configuration.profiles(), configuration.engine(),
            configuration.limits(), tickets::incrementAndGet, System::currentTimeMillis);
        final EngineLoop loop = new EngineLoop(engine, System::nanoTime, 50_000_000L);
        loops.add(loop);
        loop.start();
        return new LatencyServiceServant(loop, System::currentTimeMillis, WriteGuard.open(),
            new ServerMetrics(engine.table(), loop::counters), profile -> { }, timeoutMillis -> true);
    }

    /** What start-up says about the connection's profile when {@code bad} is listed instead of the good file. */
    private String startupReason(final Path bad, final boolean insteadOfTac4, final String path) throws Exception {
        final Path config = Files.writeString(directory.resolve("bad-server.yaml"), insteadOfTac4
            ? configuration("", bad.getFileName().toString(), "measured.json")
            : configuration("", "tac4.json", bad.getFileName().toString()));
        final List<InputFault> faults = assertThrows(ConfigurationException.class, () -> ConfigurationLoader.load(config))
            .faults();
        assertEquals(1, faults.size(), faults::toString);
        assertEquals(path, faults.get(0).path());
        return faults.get(0).reason();
    }

    @Test
    void aProfileForAnotherWorkstationTypeIsRefusedAlikeAtStartLoadAndRestart() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(writeGoodProfiles());
        final String json = Files.readString(directory.resolve("tac4.json")).replace("\"workstation_type\" : \"TAC-4\"",
            "\"workstation_type\" : \"OTHER\"");
        final Path bad = Files.writeString(directory.resolve("other.json"), json);
        final String reason = startupReason(bad, true, "connections[0].profile");
        assertEquals("profile 'thesis-tac4-corba' is for OTHER workstations, but client 'ws1' is a TAC-4: a connection's profile"
            + " must be for its client's workstation type", reason);

        final LatencyServiceServant servant = servant(configuration);
        servant.PutMibUpdates(new org.latencyserver.idl.LatservPackage.IdlMibUpdates((short) 1, (short) 10, (short) 10, (short) 10),
            (short) 1);
        final ProfileRejected rejected = assertThrows(ProfileRejected.class, () -> servant.load_profile(json, "other.json"));
        assertEquals(List.of("other.json:0:0: connection 1: " + reason), List.of(rejected.faults));
        assertEquals("other.json refused; the server keeps the profile it had", rejected.reason);
        assertEquals("TAC-4", servant.list_profiles()[0].workstation_type, "the configured profile still serves");
        assertNotNull(servant.current_estimate((short) 1), "and connection 1 with it");

        assertRestoreRefuses(configuration, ProfileJson.read(bad));
    }

    @Test
    void aQos2ProfileWithoutHistogramsIsRefusedAlikeAtStartLoadAndRestart() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(writeGoodProfiles());
        final Profile flat = TestProfiles.tenBins("measured-tac4", "TAC-4", 100_000L, false);
        final Path bad = directory.resolve("flat.json");
        ProfileJson.write(flat, bad);
        final String reason = startupReason(bad, false, "connections[1].profile");
        assertTrue(reason.startsWith("QoS 2 takes its bound from the profile's histograms, but profile 'measured-tac4' has none"),
            reason);

        final LatencyServiceServant servant = servant(configuration);
        final ProfileRejected rejected = assertThrows(ProfileRejected.class,
            () -> servant.load_profile(ProfileJson.toJson(flat), "flat.json"));
        assertEquals(List.of("flat.json:0:0: connection 2: " + reason), List.of(rejected.faults));
        assertTrue(Stream.of(servant.list_profiles()).filter(p -> p.name.equals("measured-tac4")).findFirst().orElseThrow()
            .has_histograms, "the configured profile still serves");

        assertRestoreRefuses(configuration, flat);
    }

    /** A profile kept from before a restart that fails the check is not restored, and is set aside. */
    private void assertRestoreRefuses(final ServerConfiguration configuration, final Profile bad) throws Exception {
        final LoadedProfiles kept = new LoadedProfiles(directory.resolve("state.json"));
        kept.save(bad);
        assertEquals(Map.of(), kept.restore(configuration.limits().profileLimits(), configuration.connectionSpecs()));
        try (Stream<Path> files = Files.list(kept.directory())) {
            final List<String> names = files.map(p -> p.getFileName().toString()).toList();
            assertEquals(1, names.size(), names::toString);
            assertTrue(names.get(0).startsWith(bad.name() + ".json.refused-"), names::toString);
        }
    }

    @Test
    void aProfileThatFitsIsRestoredAndLoaded() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(writeGoodProfiles());
        final Profile better = TestProfiles.tenBins("measured-tac4", "TAC-4", 100_000L, true);
        final LoadedProfiles kept = new LoadedProfiles(directory.resolve("state.json"));
        kept.save(better);
        assertEquals(Map.of("measured-tac4", better), kept.restore(configuration.limits().profileLimits(),
            configuration.connectionSpecs()));
        assertEquals("measured-tac4", servant(configuration).load_profile(ProfileJson.toJson(better), "better.json").name);
    }

    @Test
    void aProfileLargerThanMaxProfileBytesIsRefusedByLoadProfileWithItsSize() throws Exception {
        final ServerConfiguration configuration = smallProfileLimit();
        final String json = Files.readString(directory.resolve("tac4.json"));
        final long bytes = json.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        final ProfileRejected rejected = assertThrows(ProfileRejected.class,
            () -> servant(configuration).load_profile(json, "tac4.json"));
        assertEquals(List.of("tac4.json:0:0: file: is " + bytes + " bytes, more than the limit of 4096 bytes for a profile"),
            List.of(rejected.faults));
    }

    @Test
    void aProfileRefusedForItsSizeAloneIsTooLargeAndOneThatDoesNotFitIsABadProfile() throws Exception {
        final ServerConfiguration configuration = smallProfileLimit();
        servant(configuration);
        final EngineLoop loop = loops.get(loops.size() - 1);
        final ProfileLoads loads = new ProfileLoads(loop.query(), WriteGuard.open(), new ProfileInstaller(new EngineProxy(loop),
            profile -> { }));

        final Refusal huge = loads.load(Files.readString(directory.resolve("tac4.json")), "tac4.json").admit().refusal();
        assertEquals(Refusal.Kind.TOO_LARGE, huge.kind());
        assertEquals("tac4.json refused; the server keeps the profile it had", huge.message());
        assertEquals(1, huge.faults().size());

        final String flat = ProfileJson.toJson(TestProfiles.tenBins("measured-tac4", "TAC-4", 100_000L, false));
        final Refusal misfit = loads.load(flat, "flat.json").admit().refusal();
        assertEquals(Refusal.Kind.BAD_PROFILE, misfit.kind(), misfit.faults().toString());

        final Refusal longName = loads.load(flat, "y".repeat(201)).admit().refusal();
        assertEquals(Refusal.Kind.TOO_LARGE, longName.kind());
        assertEquals("the source name has 201 characters, more than 200", longName.message());
        assertEquals(List.of(), longName.faults());
    }

    private static HistogramBins bins(final int count) {
        final long[] edges = new long[count];
        final long[] counts = new long[count];
        for (int i = 0; i < count; i++) {
            edges[i] = (i + 1) * 1000L;
        }
        counts[0] = 1;
        return new HistogramBins(edges, counts, 0);
    }

    @Test
    void aResultOrProbeWithMoreBinsThanTheLimitIsRefusedBeforeAnythingIsBuilt() throws Exception {
        final LatencyServiceServant servant = servant(ConfigurationLoader.load(writeGoodProfiles()));
        final MeasuredResult result = new MeasuredResult((short) 3, 7L, bins(20_001), 1, 0.001, 0, 0.001, 0, 0, "test",
            new double[0]);
        final ResultRefused refused = assertThrows(ResultRefused.class, () -> servant.submit_measurement(result));
        assertEquals("result for connection 3 refused: histogram has 20001 bins, more than the limit of 20000"
            + " (limits.max_histogram_bins)", refused.reason);

        final MeasuredResult batches = new MeasuredResult((short) 3, 7L, bins(10), 1, 0.001, 0, 0.001, 0, 0, "test",
            new double[20_001]);
        assertEquals("result for connection 3 refused: batch_means_ms has 20001 values, more than the limit of 20000"
                + " (limits.max_histogram_bins)",
            assertThrows(ResultRefused.class, () -> servant.submit_measurement(batches)).reason);

        final ProbeReport probe = new ProbeReport((short) 3, "ws1", "test", bins(20_001), 1, 0.001, 2000, ProbeShapes.idl());
        assertEquals("probe report for connection 3 refused: histogram has 20001 bins, more than the limit of 20000"
            + " (limits.max_histogram_bins)", assertThrows(ResultRefused.class, () -> servant.submit_probe(probe)).reason);
    }

    @Test
    void theBinLimitIsTheConfiguredOne() {
        final InputLimits limits = new InputLimits(60_000, 1000, 100, 1 << 20);
        final Refusal tooLarge = IdlConversions.tooLarge(bins(101), null, limits).orElseThrow();
        assertEquals("histogram has 101 bins, more than the limit of 100 (limits.max_histogram_bins)", tooLarge.message());
        assertEquals(Refusal.Kind.TOO_LARGE, tooLarge.kind());
        assertEquals("histogram", tooLarge.field());
        assertEquals("101", tooLarge.value());
        assertEquals("100 (limits.max_histogram_bins)", tooLarge.limit());
        assertEquals(Optional.empty(), IdlConversions.tooLarge(bins(100), new double[100], limits));
        assertEquals(Optional.empty(), IdlConversions.tooLarge(null, null, limits), "a missing histogram is left to the conversion");
    }
}
