package org.latencyserver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.emulator.ScenarioStatus;

class ScenarioFollowerTest {

    @TempDir
    Path directory;

    /** What the follower asked for, in order: "node=percent". */
    private final List<String> driven = new ArrayList<>();

    private ScenarioFollower follower() {
        return new ScenarioFollower(directory.resolve("emulator.status.json"), List.of("lab1", "lab2"),
            (node, percent) -> driven.add(node + "=" + percent));
    }

    private void emulatorWrites(final int step, final long sequence, final Map<String, Integer> cpuPercent) throws Exception {
        new ScenarioStatus(ScenarioStatus.FORMAT, step, 12, 1, sequence, cpuPercent, Map.of("sw1/3", 40))
            .writeTo(directory.resolve("emulator.status.json"));
    }

    @Test
    void beforeTheEmulatorHasWrittenItsStatusNothingIsDriven() throws Exception {
        final ScenarioFollower follower = follower();

        assertNull(follower.poll());
        assertTrue(driven.isEmpty());
    }

    @Test
    void eachStepChangeDrivesTheFollowedNodesOnce() throws Exception {
        final ScenarioFollower follower = follower();
        emulatorWrites(1, 1, Map.of("lab1", 80, "lab2", 10, "ws9", 55));

        assertEquals(1, follower.poll().step());
        assertNull(follower.poll(), "the same sequence again: nothing new");
        assertEquals(List.of("lab1=80", "lab2=10"), driven, "only the followed nodes, once");

        emulatorWrites(2, 2, Map.of("lab1", 20, "lab2", 90));
        assertEquals(2, follower.poll().step());

        assertEquals(List.of("lab1=80", "lab2=10", "lab1=20", "lab2=90"), driven);
    }

    @Test
    void aStepSeenAgainOnTheNextPassIsActedOnBecauseItsSequenceIsNew() throws Exception {
        final ScenarioFollower follower = follower();
        emulatorWrites(1, 1, Map.of("lab1", 80));
        follower.poll();

        emulatorWrites(1, 13, Map.of("lab1", 80)); // step 1 again, on pass 2 of a looping scenario
        assertEquals(13, follower.poll().sequence());

        assertEquals(List.of("lab1=80", "lab1=80"), driven);
    }

    @Test
    void changesMissedBetweenTwoPollsLeaveOnlyTheStepInForce() throws Exception {
        final ScenarioFollower follower = follower();
        emulatorWrites(3, 3, Map.of("lab1", 30, "lab2", 60)); // sequences 1 and 2 came and went unseen

        follower.poll();

        assertEquals(List.of("lab1=30", "lab2=60"), driven);
    }

    @Test
    void aStatusFileOfAnotherFormatStopsTheDemoWithItsName() throws Exception {
        final Path file = directory.resolve("emulator.status.json");
        Files.writeString(file, "{\"format\": \"latency-emulator-status/9\", \"sequence\": 1}");

        final DemoException failed = assertThrows(DemoException.class, () -> follower().poll());

        assertTrue(failed.getMessage().contains("latency-emulator-status/9"), failed.getMessage());
        assertTrue(driven.isEmpty());
    }
}
