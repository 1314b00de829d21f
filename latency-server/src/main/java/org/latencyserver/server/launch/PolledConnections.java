package org.latencyserver.server.launch;

import java.util.HashMap;
import java.util.Map;
import org.latencyserver.server.config.LinkConfig;
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
            final LinkConfig link = configuration.link(connection.linkName());
            final PolledSources sources = new PolledSources(
                client.mibSource() == MibSource.SNMP ? client.name() : null,
                peer.mibSource() == MibSource.SNMP ? peer.name() : null,
                link != null && link.mibSource() == MibSource.SNMP ? link.name() : null,
                link != null);
            if (sources.any()) {
                polled.put(connection.indexRef(), sources);
            }
        }
        return polled;
    }
}
