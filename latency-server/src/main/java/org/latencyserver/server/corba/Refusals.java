package org.latencyserver.server.corba;

import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.metrics.ServerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every refused call goes through here: counted by operation and reason, and logged at WARN (the
 * log's {@code RepeatedWarningFilter} keeps a flood of the same refusal to one line per interval).
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
     * @param why       the label
     * @param reason    the full reason, as told to the caller
     * @return {@code reason}
     */
    String record(final Operation operation, final Refusal why, final String reason) {
        metrics.refused(operation, why.label());
        // The operation and label are part of the pattern, so that repeats are held back per kind of refusal.
        LOG.warn(operation.label() + " refused (" + why.label() + "): {}", reason);
        return reason;
    }
}
