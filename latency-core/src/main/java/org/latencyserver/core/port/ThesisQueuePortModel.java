package org.latencyserver.core.port;

import java.util.Locale;

/**
 * The thesis's port model (section 4.2.3, constraint 4): above 90 % the port adds
 * {@code 1 / (1 − ρ)} ms with {@code ρ = (u − 91) / 10}, the queueing result for a loaded server;
 * 1 ms at 91 %, 1.667 ms at 95 %, 3.333 ms at 98 %, 10 ms at 100 %. It ignores the message size,
 * as the thesis says.
 *
 * <p>The thesis states the formula for "greater than 90 %" with utilisations in whole percent, so
 * the model is defined on 91..100; {@link PortModel#contribution} takes whole percent.
 *
 * <p>Immutable and thread-safe; a singleton.
 */
public final class ThesisQueuePortModel implements PortModel {

    /** The one instance. */
    public static final ThesisQueuePortModel INSTANCE = new ThesisQueuePortModel();

    private ThesisQueuePortModel() {
    }

    /**
     * {@inheritDoc}
     *
     * <p>The message size is checked but does not enter the result.
     */
    @Override
    public PortContribution contribution(final int portUtilisationPercent, final int messageSizeBytes) {
        PortModel.requireArguments(portUtilisationPercent, messageSizeBytes);
        if (portUtilisationPercent <= LOADED_ABOVE_PERCENT) {
            return PortContribution.NONE;
        }
        final double load = (portUtilisationPercent - 91) / 10.0;
        final double millis = 1.0 / (1.0 - load);
        return new PortContribution(millis,
            String.format(Locale.ROOT, "thesis queue model at %d %%: 1/(1-(u-91)/10)", portUtilisationPercent), false);
    }

    /** @return {@code "thesis-queue"} */
    @Override
    public String kind() {
        return "thesis-queue";
    }

    /** @return the class name; the model has no parameters */
    @Override
    public String toString() {
        return "ThesisQueuePortModel";
    }
}
