package org.latencyserver.core.input;

import java.util.List;
import java.util.stream.Collectors;

/**
 * An input was refused. {@link #faults()} lists every fault found, not just the first; the message
 * holds them one per line in the form {@code source:line:column: path: reason}.
 *
 * <p>Readers may throw a subclass that says which kind of input was refused, so that callers can
 * catch that kind alone. Immutable once thrown.
 */
public class InputFaultsException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<InputFault> faults;

    /**
     * @param faults every fault found, at least one, in the order they are to be shown
     * @throws IllegalArgumentException when there is none: a refusal must say why
     */
    public InputFaultsException(final List<InputFault> faults) {
        super(joined(faults));
        this.faults = List.copyOf(faults);
    }

    private static String joined(final List<InputFault> faults) {
        if (faults == null || faults.isEmpty()) {
            throw new IllegalArgumentException("a refused input has at least one fault");
        }
        return faults.stream().map(InputFault::toString).collect(Collectors.joining(System.lineSeparator()));
    }

    /** @return the faults, in the order given to the constructor */
    public List<InputFault> faults() {
        return faults;
    }
}
