package org.latencyserver.server.corba;

import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.metrics.ServerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every refused call goes through here: counted by operation and the refusal's kind
 * ({@link Refusal.Kind#metricLabel()}), and logged at WARN (the log's {@code RepeatedWarningFilter}
 * keeps a flood of the same refusal to one line per interval).
 *
 * <p>Thread-safe.
 */
final class Refusals {

    private static final Logger LOG = LoggerFactory.getLogger(Refusals.class);

    private final ServerMetrics metrics;

    Refusals(final ServerMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * @param operation the IDL operation
     * @param refusal   why it is refused
     * @return {@code refusal}
     */
    Refusal record(final Operation operation, final Refusal refusal) {
        final String label = refusal.kind().metricLabel();
        metrics.refused(operation, refusal.kind());
        // The operation and label are part of the pattern, so that repeats are held back per kind of refusal.
        LOG.warn(operation.label() + " refused (" + label + "): {}", logged(refusal));
        return refusal;
    }

    /** The message, and for a refused document its first fault and how many more. */
    private static String logged(final Refusal refusal) {
        if (refusal.faults().isEmpty()) {
            return refusal.message();
        }
        final int more = refusal.faults().size() - 1;
        return refusal.message() + ": " + refusal.faults().get(0) + (more > 0 ? " (and " + more + " more)" : "");
    }
}
