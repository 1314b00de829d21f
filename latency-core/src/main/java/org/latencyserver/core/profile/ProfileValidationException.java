package org.latencyserver.core.profile;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A profile was refused; {@link #faults()} lists every fault found, not just the first, and the
 * message holds them one per line as {@code file: location: reason}. Immutable once thrown.
 */
public class ProfileValidationException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<ProfileFault> faults;

    /**
     * @param faults every fault, at least one
     * @throws IllegalArgumentException when there is none: a refusal must say why
     */
    public ProfileValidationException(final List<ProfileFault> faults) {
        super(joined(faults));
        this.faults = List.copyOf(faults);
    }

    private static String joined(final List<ProfileFault> faults) {
        if (faults == null || faults.isEmpty()) {
            throw new IllegalArgumentException("a refused profile needs at least one fault");
        }
        return faults.stream().map(ProfileFault::toString).collect(Collectors.joining(System.lineSeparator()));
    }

    /** @return the faults, in the order found */
    public List<ProfileFault> faults() {
        return faults;
    }
}
