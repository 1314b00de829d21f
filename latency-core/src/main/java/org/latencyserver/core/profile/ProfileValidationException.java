package org.latencyserver.core.profile;

import java.util.List;
import java.util.stream.Collectors;

/** A profile was refused; {@link #faults()} lists every fault found, not just the first. */
public class ProfileValidationException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<ProfileFault> faults;

    /** @param faults every fault, at least one */
    public ProfileValidationException(final List<ProfileFault> faults) {
        super(faults.stream().map(ProfileFault::toString).collect(Collectors.joining(System.lineSeparator())));
        this.faults = List.copyOf(faults);
    }

    /** @return the faults, in the order found */
    public List<ProfileFault> faults() {
        return faults;
    }
}
