package org.latencyserver.server.snmp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the SNMP poller has done since start and how its sources answer, read at one moment: an
 * immutable snapshot for metrics and tests. The counters only grow.
 *
 * @param requestsSent          SNMP GET requests sent
 * @param answersReceived       answers received, good or bad
 * @param pollsSkipped          polls not sent because the source's previous request was still outstanding
 * @param sourcesUp             per polled node or link name: true while it answers, false while UNKNOWN
 * @param counterRefreshSeconds per polled node or link name, how often its agent refreshes the counters it is read
 *                              from, s (sources not yet seen are left out)
 */
public record SnmpPollerCounters(long requestsSent, long answersReceived, long pollsSkipped, Map<String, Boolean> sourcesUp,
                                 Map<String, Double> counterRefreshSeconds) {

    /** Copies the maps, keeping their order. */
    public SnmpPollerCounters {
        sourcesUp = Collections.unmodifiableMap(new LinkedHashMap<>(sourcesUp));
        counterRefreshSeconds = Collections.unmodifiableMap(new LinkedHashMap<>(counterRefreshSeconds));
    }

    /**
     * @param poller the poller, read from the calling thread (its counters are thread-safe)
     * @return its counters now
     */
    public static SnmpPollerCounters of(final SnmpPoller poller) {
        return new SnmpPollerCounters(poller.requestsSent(), poller.answersReceived(), poller.pollsSkipped(), poller.sourcesUp(),
            poller.counterRefreshSeconds());
    }
}
