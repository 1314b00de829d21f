package org.latencyserver.server.config;

import java.util.EnumMap;
import java.util.Map;
import org.latencyserver.core.input.InputMapping;

/**
 * A block of the configuration whose options are all numbers (e.g. {@code measurement:}), read
 * whole from the options table: only its options' keys are allowed, and each is read within its
 * range, with its default when absent.
 *
 * <p>Not thread-safe: one loader, one thread.
 */
final class NumberBlock {

    private final Map<ServerOption, Number> values = new EnumMap<>(ServerOption.class);
    private boolean complete = true;

    private NumberBlock() {
    }

    /**
     * Reads every option of the block, in table order; faults are reported to the mapping's faults.
     *
     * @param section the block
     * @param parent  its path in the table, e.g. {@code measurement}
     * @param derived the whole-number defaults the table can only describe (derived from another key)
     * @return the values; see {@link #complete()}
     * @throws IllegalStateException when an option of the block is not a number (a mistake in the table)
     */
    static NumberBlock read(final InputMapping section, final String parent, final Map<ServerOption, Long> derived) {
        OptionReads.allowOnlyOptionsOf(section, parent);
        final NumberBlock block = new NumberBlock();
        for (final ServerOption option : ServerOption.in(parent)) {
            final Number value;
            if (option.accepts() instanceof OptionValues.Whole) {
                value = OptionReads.whole(section, option, derived.containsKey(option) ? derived.get(option) : option.defaultWhole());
            } else if (option.accepts() instanceof OptionValues.Decimal) {
                value = OptionReads.decimal(section, option);
            } else {
                throw new IllegalStateException(option.path() + " is not a number but " + option.accepts().describe());
            }
            if (value == null) {
                block.complete = false;
            } else {
                block.values.put(option, value);
            }
        }
        return block;
    }

    /** @return whether every option was read without a fault; only then may its values be asked for */
    boolean complete() {
        return complete;
    }

    /** @return a whole-number option's value */
    long whole(final ServerOption option) {
        return values.get(option).longValue();
    }

    /** @return a decimal option's value */
    double decimal(final ServerOption option) {
        return values.get(option).doubleValue();
    }
}
