package org.latencyserver.launch.agent;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Closes what was pushed onto it in reverse order: the undo list of a start-up that acquires one
 * resource after another. On failure, a {@code try (CloseStack undo = ...)} closes what was started so
 * far; on success, {@link #handOver()} moves the resources to a new stack that their long-lived owner
 * closes, or {@link #release()} forgets them when the owner closes them in its own way.
 *
 * <p>A close goes on past a failing resource; the first failure is thrown (as a
 * {@link CloseFailure} when it is checked) with the later ones as suppressed exceptions.
 *
 * <p>Not thread-safe: the starting thread only.
 */
public final class CloseStack implements AutoCloseable {

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    /**
     * @param resource something to close, last pushed is closed first
     * @param <T>      its type
     * @return the resource, for {@code x = stack.push(open())}
     */
    public <T extends AutoCloseable> T push(final T resource) {
        resources.push(resource);
        return resource;
    }

    /** @return a new stack holding everything this one held (same order); this one is left empty */
    public CloseStack handOver() {
        final CloseStack taken = new CloseStack();
        while (!resources.isEmpty()) {
            taken.resources.addLast(resources.removeFirst());
        }
        return taken;
    }

    /** Forgets everything held without closing it: a start that succeeded, whose resources now belong to their long-lived owner. */
    public void release() {
        resources.clear();
    }

    /** @return how many resources are still to close */
    public int size() {
        return resources.size();
    }

    /** Closes everything still held, last pushed first; the stack is empty afterwards, so a second close does nothing. */
    @Override
    public void close() {
        Throwable first = null;
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (first != null) {
            throw new CloseFailure(first);
        }
    }

    /** A checked exception thrown by a resource's close, with the later failures suppressed on its cause. */
    public static final class CloseFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CloseFailure(final Throwable cause) {
            super("closing failed: " + cause, cause);
        }
    }
}
