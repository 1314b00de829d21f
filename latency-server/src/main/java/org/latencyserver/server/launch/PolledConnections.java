package org.latencyserver.server.launch;

import java.util.HashMap;
import java.util.Map;
import org.latencyserver.server.config.ConnectionConfig;
import org.latencyserver.server.config.MibSource;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.corba.PolledSources;

/** Which connections take (some of) their load from SNMP polls, and from which sources. */
final class PolledConnections {

    private PolledConnections() {
    }

    /**
     * @param configuration the server's configuration
     * @return per connection with at least one polled source, which
     */
    static Map<Short, PolledSources> of(final ServerConfiguration configuration) {
        final Map<Short, PolledSources> polled = new HashMap<>();
        for (final ConnectionConfig connection : configuration.connectionConfigs()) {
            final PolledSources sources = new PolledSources(
                connection.client().mibSource() == MibSource.SNMP ? connection.client().name() : null,
                connection.peer().mibSource() == MibSource.SNMP ? connection.peer().name() : null,
                connection.link() != null && connection.link().mibSource() == MibSource.SNMP ? connection.link().name() : null,
                connection.link() != null);
            if (sources.any()) {
                polled.put(connection.indexRef(), sources);
            }
        }
        return polled;
    }
}
