package org.latencyserver.launch.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CloseStackTest {

    private final List<String> closed = new ArrayList<>();

    private AutoCloseable named(final String name) {
        return () -> closed.add(name);
    }

    @Test
    void closesInReverseOrderOfPushAndOnlyOnce() {
        final CloseStack stack = new CloseStack();
        stack.push(named("orb"));
        stack.push(named("store"));
        stack.push(named("poller"));
        stack.close();
        stack.close();
        assertEquals(List.of("poller", "store", "orb"), closed);
        assertEquals(0, stack.size());
    }

    @Test
    void aFailingCloseDoesNotStopTheOthersAndLaterFailuresAreSuppressed() {
        final CloseStack stack = new CloseStack();
        final IllegalStateException early = new IllegalStateException("early");
        stack.push(() -> {
            closed.add("first pushed");
            throw early;
        });
        stack.push(() -> {
            closed.add("second pushed");
            throw new IOException("late");
        });
        final CloseStack.CloseFailure failure = assertThrows(CloseStack.CloseFailure.class, stack::close);
        assertEquals(List.of("second pushed", "first pushed"), closed);
        assertEquals("late", failure.getCause().getMessage());
        assertSame(early, failure.getCause().getSuppressed()[0]);
    }

    @Test
    void aRuntimeFailureIsThrownAsItIs() {
        final CloseStack stack = new CloseStack();
        final IllegalArgumentException boom = new IllegalArgumentException("boom");
        stack.push(() -> {
            throw boom;
        });
        assertSame(boom, assertThrows(IllegalArgumentException.class, stack::close));
    }

    @Test
    void handOverMovesEverythingInOrderAndLeavesTheStackEmpty() {
        final CloseStack stack = new CloseStack();
        stack.push(named("a"));
        stack.push(named("b"));
        final CloseStack taken = stack.handOver();
        stack.close();
        assertEquals(List.of(), closed);
        assertEquals(2, taken.size());
        taken.close();
        assertEquals(List.of("b", "a"), closed);
    }

    @Test
    void releaseForgetsWithoutClosing() {
        final CloseStack stack = new CloseStack();
        stack.push(named("owned elsewhere"));
        stack.release();
        stack.close();
        assertEquals(List.of(), closed);
        assertEquals(0, stack.size());
    }

    @Test
    void aStartFailureInTryWithResourcesUndoesWhatWasStarted() {
        final IllegalStateException startFailure = assertThrows(IllegalStateException.class, () -> {
            try (CloseStack undo = new CloseStack()) {
                undo.push(named("started"));
                throw new IllegalStateException("second step failed");
            }
        });
        assertEquals("second step failed", startFailure.getMessage());
        assertEquals(List.of("started"), closed);
    }
}
