package org.latencyserver.benchmarks.accuracy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class PlayOptionsTest {

    @Command(name = "test")
    static final class Holder {
        @Mixin
        PlayOptions play = new PlayOptions();
    }

    @Test
    void theOptionsTheHarnessIsGivenReachThePlayerUnchanged() {
        final Holder harness = new Holder();
        new CommandLine(harness).parseArgs("--gap-mean-millis", "250", "--spacing-micros", "2000", "--warmup-seconds", "3",
            "--round-trip", "agent", "--seed", "7");
        final Holder player = new Holder();
        new CommandLine(player).parseArgs(harness.play.asArguments().toArray(new String[0]));
        assertEquals(harness.play.asArguments(), player.play.asArguments());
        assertEquals(List.of("--gap-mean-millis", "250.0", "--spacing-micros", "2000", "--warmup-seconds", "3", "--round-trip", "agent",
            "--seed", "7", "--play", "interleaved"), player.play.asArguments());
    }

    @Test
    void thePlayedConnectionsReachThePlayerAndTheOthersAreNotPlayed() {
        final Holder harness = new Holder();
        new CommandLine(harness).parseArgs("--play-connections", "2,4");
        final Holder player = new Holder();
        new CommandLine(player).parseArgs(harness.play.asArguments().toArray(new String[0]));
        assertEquals(harness.play.asArguments(), player.play.asArguments());
        assertEquals(List.of(true, false, true), List.of(player.play.plays(2), player.play.plays(3), player.play.plays(4)));
        final Holder every = new Holder();
        new CommandLine(every).parseArgs();
        assertEquals(List.of(true, true), List.of(every.play.plays(1), every.play.plays(3)), "without the option every one is played");
    }

    @Test
    void askingForEachShapeReachesThePlayerAndIsOffWithoutTheOption() {
        final Holder harness = new Holder();
        new CommandLine(harness).parseArgs("--ask-for-shape", "--applications", "slow,random");
        final Holder player = new Holder();
        new CommandLine(player).parseArgs(harness.play.asArguments().toArray(new String[0]));
        assertEquals(true, player.play.askForShape());
        final Holder plain = new Holder();
        new CommandLine(plain).parseArgs();
        assertEquals(false, plain.play.askForShape(), "without the option the player reads current_estimate");
        assertEquals(false, plain.play.asArguments().contains("--ask-for-shape"));
    }
}
