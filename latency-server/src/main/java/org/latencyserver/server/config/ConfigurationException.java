package org.latencyserver.server.config;

import java.util.List;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputFaultsException;

/**
 * The configuration was refused. {@link #faults()} lists every fault found, in file order; the
 * message holds one fault per line, {@code file:line:column: path: reason}. A kind of
 * {@link InputFaultsException}, so that a caller can tell a refused configuration from other
 * refused input.
 */
public class ConfigurationException extends InputFaultsException {
    private static final long serialVersionUID = 1L;

    /**
     * @param faults every fault found, at least one, in file order
     * @throws IllegalArgumentException when there is none
     */
    public ConfigurationException(final List<InputFault> faults) {
        super(faults);
    }
}
