package org.latencyserver.core.profile;

import java.util.List;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputFaultsException;

/**
 * A profile was refused; {@link #faults()} lists every fault found, not just the first, in the
 * order found, and the message holds them one per line as {@code source:line:column: path: reason}.
 * A kind of {@link InputFaultsException}, so that a caller can tell a refused profile from other
 * refused input. Immutable once thrown.
 */
public class ProfileValidationException extends InputFaultsException {
    private static final long serialVersionUID = 1L;

    private final boolean overSizeLimit;

    /**
     * @param faults every fault, at least one
     * @throws IllegalArgumentException when there is none: a refusal must say why
     */
    public ProfileValidationException(final List<InputFault> faults) {
        this(faults, false);
    }

    /**
     * @param faults        every fault, at least one
     * @param overSizeLimit whether every fault is a size over its limit (the text's bytes, a histogram's bins)
     * @throws IllegalArgumentException when there is none: a refusal must say why
     */
    public ProfileValidationException(final List<InputFault> faults, final boolean overSizeLimit) {
        super(faults);
        this.overSizeLimit = overSizeLimit;
    }

    /**
     * @return true when the profile is refused for its size alone: every fault is a size over its limit
     *         ({@link ProfileLimits}), so its content may be sound
     */
    public boolean overSizeLimit() {
        return overSizeLimit;
    }
}
