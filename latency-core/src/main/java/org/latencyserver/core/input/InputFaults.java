package org.latencyserver.core.input;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Gathers the faults of one input, so that a reader reports all of them at once instead of
 * stopping at the first. Every fault carries the collector's source name.
 *
 * <p>Not thread-safe: one reader, one thread.
 */
public final class InputFaults {

    private final String source;
    private final List<InputFault> faults = new ArrayList<>();
    private int sizeLimitFaults;

    /** @param source the file name (or label) every fault carries */
    public InputFaults(final String source) {
        this.source = source;
    }

    /** @return the source name every fault carries */
    public String source() {
        return source;
    }

    /**
     * Reports a fault at a place.
     *
     * @param line   1-based line, 0 for the whole input
     * @param column 1-based column, 0 when unknown
     * @param path   the key path, or {@code file}
     * @param reason what is wrong, with the bad value
     */
    public void add(final int line, final int column, final String path, final String reason) {
        faults.add(new InputFault(source, line, column, path, reason));
    }

    /** Reports a fault at a node's value. */
    public void at(final InputNode node, final String path, final String reason) {
        add(node.line(), node.column(), path, reason);
    }

    /**
     * Reports a size over its limit at a node's value (too many items, too long), so that a caller can
     * tell an input refused only for its size ({@link #allOverSizeLimit}).
     */
    public void overSizeLimit(final InputNode node, final String path, final String reason) {
        at(node, path, reason);
        sizeLimitFaults++;
    }

    /** Reports a fault that concerns the whole input (line and column 0, path {@code file}). */
    public void whole(final String reason) {
        add(0, 0, "file", reason);
    }

    /** @return how many faults so far; compare before and after a check to see whether it passed */
    public int count() {
        return faults.size();
    }

    /** @return whether no fault has been reported */
    public boolean isEmpty() {
        return faults.isEmpty();
    }

    /** @return whether there are faults and every one was reported by {@link #overSizeLimit} */
    public boolean allOverSizeLimit() {
        return !faults.isEmpty() && sizeLimitFaults == faults.size();
    }

    /** @return the faults in the order they were reported */
    public List<InputFault> inOrderFound() {
        return List.copyOf(faults);
    }

    /** @return the faults in file order (line, then column; ties keep the order found) */
    public List<InputFault> inFileOrder() {
        final List<InputFault> sorted = new ArrayList<>(faults);
        sorted.sort(Comparator.comparingInt(InputFault::line).thenComparingInt(InputFault::column));
        return List.copyOf(sorted);
    }

    /**
     * @throws InputFaultsException with every fault, in file order, when there is any
     */
    public void throwIfAny() throws InputFaultsException {
        if (!faults.isEmpty()) {
            throw new InputFaultsException(inFileOrder());
        }
    }
}
