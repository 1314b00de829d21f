package org.latencyserver.server.launch;

import java.util.HashMap;
import java.util.Map;
import org.latencyserver.server.config.NodeConfig;
import org.latencyserver.server.config.MibSource;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.corba.PolledSources;
import org.latencyserver.server.table.ConnectionSpec;

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
        for (final ConnectionSpec connection : configuration.connectionSpecs()) {
            final NodeConfig client = configuration.node(connection.clientNodeName());
            final NodeConfig peer = configuration.node(connection.peerNodeName());
            // A path of several ports has every port polled (the configuration refuses a pushed one).
            final boolean pathPolled = !connection.linkNames().isEmpty() && connection.linkNames().stream()
                .allMatch(name -> configuration.link(name).mibSource() == MibSource.SNMP);
            final PolledSources sources = new PolledSources(
                client.mibSource() == MibSource.SNMP ? client.name() : null,
                peer.mibSource() == MibSource.SNMP ? peer.name() : null,
                pathPolled ? connection.pathLabel() : null,
                !connection.linkNames().isEmpty());
            if (sources.any()) {
                polled.put(connection.indexRef(), sources);
            }
        }
        return polled;
    }
}
