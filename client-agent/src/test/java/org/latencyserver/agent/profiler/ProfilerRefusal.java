package org.latencyserver.agent.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.latencyserver.agent.load.MachineContention.OtherWork;
import org.latencyserver.core.state.CpuStateClassifier;

/**
 * What {@code profile measure} prints when it refuses pairs whose load missed its state (see
 * {@code docs/planner-guide.md}, "Refusal"), read back by the tests that run it with real load.
 */
public final class ProfilerRefusal {

    private static final Pattern REFUSED_PAIR = Pattern.compile("(?m)^  (\\S+) \\(every size\\): the achieved load missed \\1 "
        + ProfileRun.ATTEMPTS + " times$");
    /** One try's miss: "LOW/LOW: the load read client 40 % (MEDIUM), peer 12 % (LOW)", before or after its sizes. */
    private static final Pattern MISS = Pattern.compile(
        "(?m)^(\\S+): (?:after its sizes )?the load read client (\\d+) % \\((\\w+)\\), peer (\\d+) % \\((\\w+)\\)");

    private ProfilerRefusal() {
    }

    /** @return the pairs the output lists as refused, in its order; empty when none were */
    public static Set<String> refusedPairs(final String output) {
        final Set<String> refused = new LinkedHashSet<>();
        final Matcher pairs = REFUSED_PAIR.matcher(output);
        while (pairs.find()) {
            refused.add(pairs.group(1));
        }
        return refused;
    }

    /**
     * Checks a run either measured every pair it was given (exit 0), or refused some the documented
     * way and because of the machine: exit 1, each refused pair missed its state on every try with
     * the figures read each time (figures that do lie outside the pair's states), and other work ran
     * beside it. A refusal on a quiet machine fails: reaching the states there is the profiler's job.
     *
     * @return the pairs refused
     */
    public static Set<String> assertMeasuredOrRefusedUnderOtherWork(final int exit, final String output, final OtherWork otherWork) {
        final Set<String> refused = refusedPairs(output);
        if (refused.isEmpty()) {
            assertEquals(0, exit, output);
            return refused;
        }
        assertEquals(1, exit, output);
        assertTrue(output.contains("REFUSED: the achieved load missed its state, so these were not recorded:"), output);
        assertTrue(otherWork.contended(), "refused " + refused + " with no other work beside it (" + otherWork.describe()
            + "): the profiler missed states a quiet machine can reach\n" + output);
        final Map<String, Integer> missesByPair = new TreeMap<>();
        final Matcher miss = MISS.matcher(output);
        while (miss.find()) {
            final String[] states = miss.group(1).split("/");
            assertFigureIsInState(Integer.parseInt(miss.group(2)), miss.group(3), miss.group());
            assertFigureIsInState(Integer.parseInt(miss.group(4)), miss.group(5), miss.group());
            assertTrue(!miss.group(3).equals(states[0]) || !miss.group(5).equals(states[1]),
                "a miss reads a state other than the pair's: " + miss.group());
            missesByPair.merge(miss.group(1), 1, Integer::sum);
        }
        for (final String pair : refused) {
            assertEquals(ProfileRun.ATTEMPTS, missesByPair.getOrDefault(pair, 0),
                pair + " was refused after a miss on every try, each with its figures:\n" + output);
        }
        return refused;
    }

    /** The figure is printed rounded to a whole percent; its state is that of the unrounded reading. */
    private static void assertFigureIsInState(final int roundedPercent, final String state, final String line) {
        final CpuStateClassifier classifier = CpuStateClassifier.withDefaults();
        assertTrue(classifier.classifyPlain(roundedPercent - 0.5).name().equals(state)
            || classifier.classifyPlain(roundedPercent + 0.49).name().equals(state), "figure and state agree: " + line);
    }
}
