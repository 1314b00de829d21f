package org.latencyserver.server.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Gathers the faults of one configuration file, so that all of them are reported at once.
 *
 * <p>Not thread-safe: one loader, one thread.
 */
final class FaultCollector {

    private final String file;
    private final List<ConfigurationFault> faults = new ArrayList<>();

    /** @param file the file name every fault carries */
    FaultCollector(final String file) {
        this.file = file;
    }

    void add(final int line, final int column, final String path, final String reason) {
        faults.add(new ConfigurationFault(file, line, column, path, reason));
    }

    /** Reports a fault at a node's value. */
    void at(final YamlNode node, final String path, final String reason) {
        add(node.line(), node.column(), path, reason);
    }

    /** @return how many faults so far; compare before and after a check to see whether it passed */
    int count() {
        return faults.size();
    }

    boolean isEmpty() {
        return faults.isEmpty();
    }

    /** @return the faults in file order (line, then column; ties keep the order found) */
    List<ConfigurationFault> inFileOrder() {
        final List<ConfigurationFault> sorted = new ArrayList<>(faults);
        sorted.sort(Comparator.comparingInt(ConfigurationFault::line).thenComparingInt(ConfigurationFault::column));
        return List.copyOf(sorted);
    }
}
