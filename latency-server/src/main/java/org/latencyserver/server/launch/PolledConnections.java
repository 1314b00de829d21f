package org.latencyserver.server.launch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.latencyserver.server.config.ConnectionConfig;
import org.latencyserver.server.config.MibSource;
import org.latencyserver.server.config.ServerConfiguration;

/** Which connections take their load from SNMP polls, and from which sources (for refusing pushed readings). */
final class PolledConnections {

    private PolledConnections() {
    }

    /**
     * @param configuration the server's configuration
     * @return per connection with a polled source, the sources named, e.g. "client ws1 is"
     */
    static Map<Short, String> of(final ServerConfiguration configuration) {
        final Map<Short, String> polled = new HashMap<>();
        for (final ConnectionConfig connection : configuration.connectionConfigs()) {
            final List<String> sources = new ArrayList<>();
            if (connection.client().mibSource() == MibSource.SNMP) {
                sources.add("client " + connection.client().name());
            }
            if (connection.peer().mibSource() == MibSource.SNMP) {
                sources.add("peer " + connection.peer().name());
            }
            if (connection.link() != null && connection.link().mibSource() == MibSource.SNMP) {
                sources.add("switch port " + connection.link().name());
            }
            if (!sources.isEmpty()) {
                polled.put(connection.indexRef(), String.join(" and ", sources) + (sources.size() == 1 ? " is" : " are"));
            }
        }
        return polled;
    }
}
