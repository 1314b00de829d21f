package org.latencyserver.server.engine;

import org.latencyserver.server.table.ConnectionRow;

/** Told, on the update thread, when round trips of a row's path joined its port state's band probes. */
@FunctionalInterface
interface BandListener {

    /** @param source the row whose round trips joined; the other connections of its path may now serve them */
    void bandProbesChanged(ConnectionRow source);
}
