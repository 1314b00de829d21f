package org.latencyserver.server.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The configuration was refused. {@link #faults()} lists every fault found, in file order; the
 * message holds one fault per line, {@code file:line:column: path: reason}.
 */
public class ConfigurationException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<ConfigurationFault> faults;

    /**
     * @param faults every fault found, at least one
     * @throws IllegalArgumentException when there is none
     */
    public ConfigurationException(final List<ConfigurationFault> faults) {
        super(faults.stream().map(ConfigurationFault::toString).collect(Collectors.joining(System.lineSeparator())));
        if (faults.isEmpty()) {
            throw new IllegalArgumentException("a refused configuration has at least one fault");
        }
        this.faults = List.copyOf(faults);
    }

    /** @return the faults, in file order */
    public List<ConfigurationFault> faults() {
        return faults;
    }
}
