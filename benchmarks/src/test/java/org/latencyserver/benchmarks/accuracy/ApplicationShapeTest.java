package org.latencyserver.benchmarks.accuracy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** The named shapes, how several share a run, and how they are chosen on the command line. */
class ApplicationShapeTest {

    private static final TrafficShape CUSTOM = new TrafficShape(1_000, 50, 0, CallKind.OCTETS);

    @Command(name = "test")
    static final class Holder {
        @Mixin
        PlayOptions play = new PlayOptions();
    }

    @Test
    void theNamedShapesSendWhatTheirNamesPromise() {
        final SplittableRandom random = new SplittableRandom(1);
        assertEquals(new TrafficShape(2_000, 20, 0, CallKind.ARRAYS), ApplicationShape.named("probes", CUSTOM).burst(0, random),
            "as the demo's client agent probes: trains of 20, --interval-micros 2000, fm1 arrays");
        assertEquals(new TrafficShape(500, 100, 0, CallKind.OCTETS), ApplicationShape.named("fast-bursty", CUSTOM).burst(7, random));
        assertEquals(new TrafficShape(10_000, 10, 0, CallKind.ARRAYS), ApplicationShape.named("slow", CUSTOM).burst(3, random));
        final ApplicationShape mixed = ApplicationShape.named("mixed", CUSTOM);
        assertEquals(List.of(CallKind.OCTETS, CallKind.ARRAYS, CallKind.OCTETS, CallKind.ARRAYS),
            List.of(mixed.burst(0, random).call(), mixed.burst(1, random).call(), mixed.burst(2, random).call(),
                mixed.burst(3, random).call()));
        assertEquals(50, mixed.burst(1, random).burstRoundTrips());
        assertEquals(CUSTOM, ApplicationShape.named("custom", CUSTOM).burst(0, random));
        assertEquals(100, mixed.maxRoundTrips() * 2);
    }

    @Test
    void aRandomShapeDrawsEachBurstFromTheDefaultFamilyAndASeedRepeatsIt() {
        final ApplicationShape shape = ApplicationShape.named("random", CUSTOM);
        final List<TrafficShape> first = draws(shape, 42);
        assertEquals(first, draws(shape, 42), "the same seed, the same bursts");
        assertNotEquals(first, draws(shape, 43));
        assertTrue(first.stream().allMatch(TrafficFamily.DEFAULT::contains));
        assertTrue(first.stream().map(TrafficShape::call).distinct().count() == 2, "both calls drawn");
        assertTrue(first.stream().mapToLong(TrafficShape::spacingMicros).distinct().count() > 10, "spacing varies burst by burst");
        assertEquals(100, shape.maxRoundTrips(), "the buffer is sized for the family's longest burst");
    }

    private static List<TrafficShape> draws(final ApplicationShape shape, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<TrafficShape> shapes = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            shapes.add(shape.burst(i, random));
        }
        return shapes;
    }

    @Test
    void sequentialDividesTheTimeAndInterleavedTakesTheShapesInTurn() {
        final List<ApplicationShape> three = ApplicationShape.named(List.of("probes", "slow", "random"), CUSTOM);
        final ShapePlan sequential = new ShapePlan(ShapePlan.Mode.SEQUENTIAL, three);
        final long duration = 300;
        assertEquals(List.of(0, 0, 1, 1, 2, 2, 2), List.of(sequential.shapeIndex(0, duration, 5), sequential.shapeIndex(99, duration, 0),
            sequential.shapeIndex(100, duration, 9), sequential.shapeIndex(199, duration, 1), sequential.shapeIndex(200, duration, 0),
            sequential.shapeIndex(299, duration, 0), sequential.shapeIndex(400, duration, 0)));
        final ShapePlan interleaved = new ShapePlan(ShapePlan.Mode.INTERLEAVED, three);
        final List<Integer> turns = new ArrayList<>();
        for (int burst = 0; burst < 7; burst++) {
            turns.add(interleaved.shapeIndex(burst * 7L, duration, burst));
        }
        assertEquals(List.of(0, 1, 2, 0, 1, 2, 0), turns, "by the connection's own burst count, whatever the time");
    }

    @Test
    void theShapesAndTheModeReachThePlayerUnchangedAndMakeItsPlan() {
        final Holder harness = new Holder();
        new CommandLine(harness).parseArgs("--applications", "probes,fast-bursty,slow,mixed,random", "--play", "sequential");
        final Holder player = new Holder();
        new CommandLine(player).parseArgs(harness.play.asArguments().toArray(new String[0]));
        assertEquals(harness.play.asArguments(), player.play.asArguments());
        final ShapePlan plan = player.play.plan(50);
        assertEquals(ShapePlan.Mode.SEQUENTIAL, plan.mode());
        assertEquals(List.of("probes", "fast-bursty", "slow", "mixed", "random"), plan.shapes().stream().map(ApplicationShape::name).toList());
    }

    @Test
    void withoutApplicationsTheOlderOptionsAreTheOneCustomShape() {
        final Holder options = new Holder();
        new CommandLine(options).parseArgs("--spacing-micros", "2000", "--round-trip", "agent");
        final ShapePlan plan = options.play.plan(30);
        assertEquals(ShapePlan.Mode.INTERLEAVED, plan.mode(), "the default");
        assertEquals(1, plan.shapes().size());
        assertEquals(new TrafficShape(2_000, 30, 0, CallKind.ARRAYS), plan.shapes().get(0).burst(0, new SplittableRandom(1)));
        assertEquals("custom", plan.label());
    }

    @Test
    void badShapesAndModesAreRefusedNamingTheOptionAndWhatItTakes() {
        final Holder unknown = new Holder();
        new CommandLine(unknown).parseArgs("--applications", "probes,bursty");
        final IllegalArgumentException noSuch = assertThrows(IllegalArgumentException.class, () -> unknown.play.plan(50));
        assertTrue(noSuch.getMessage().contains("--applications") && noSuch.getMessage().contains("\"bursty\"")
            && noSuch.getMessage().contains("fast-bursty"), noSuch.getMessage());
        final Holder twice = new Holder();
        new CommandLine(twice).parseArgs("--applications", "slow,SLOW");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> twice.play.plan(50)).getMessage().contains("named twice"));
        final Holder mode = new Holder();
        new CommandLine(mode).parseArgs("--play", "parallel");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> mode.play.plan(50)).getMessage().contains("--play must be"));
        final Holder size = new Holder();
        new CommandLine(size).parseArgs("--spacing-micros", "10");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> size.play.plan(50)).getMessage().startsWith("--spacing-micros"));
    }

    @Test
    void aBurstRecordKeepsItsShapeAndAnOlderLineReadsAsUnnamed() throws Exception {
        final ObjectMapper mapper = new ObjectMapper();
        final BurstRecord record = ShapeAnalysisTest.meanBurst("mixed", 11, 1.0, 0.9, 1.1, 1_000);
        final BurstRecord back = mapper.readValue(mapper.writeValueAsString(record), BurstRecord.class);
        assertEquals(List.of("mixed", 500L, "octets"), List.of(back.shape(), back.spacingMicros(), back.call()));
        final String older = mapper.writeValueAsString(record).replaceAll(",\"shape\":\"mixed\",\"spacing_micros\":500,\"call\":\"octets\"", "");
        assertTrue(!older.contains("shape"), older);
        assertEquals(BurstRecord.UNNAMED_SHAPE, mapper.readValue(older, BurstRecord.class).shape());
    }
}
