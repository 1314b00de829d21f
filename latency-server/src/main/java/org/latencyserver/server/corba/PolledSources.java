package org.latencyserver.server.corba;

import java.util.ArrayList;
import java.util.List;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.MibUpdate;

/**
 * Which load sources of one connection the SNMP poller reads ({@code mib_source: snmp}): a value
 * an operator pushes for such a source would be overwritten by the next poll, so it is not taken.
 *
 * <p>Immutable and thread-safe.
 *
 * @param clientNode the client workstation's name when it is polled, else null
 * @param peerNode   the peer workstation's name when it is polled, else null
 * @param link       the switch port's name when it is polled, else null
 * @param hasLink    whether the connection has a switch port at all
 */
public record PolledSources(String clientNode, String peerNode, String link, boolean hasLink) {

    /** @return whether every source the connection has is polled: a push then has nothing to set */
    public boolean all() {
        return clientNode != null && peerNode != null && (link != null || !hasLink);
    }

    /** @return whether any source is polled */
    public boolean any() {
        return clientNode != null || peerNode != null || link != null;
    }

    /**
     * @param pushed what an operator pushed
     * @return an update that sets the pushed sources only: the polled ones keep the poll's values
     */
    public MibUpdate pushed(final MibReading pushed) {
        return new MibUpdate(pushed, clientNode == null, peerNode == null, link == null);
    }

    /** @return the polled sources in words, e.g. "client ws1 and switch port p3" */
    public String describe() {
        final List<String> sources = new ArrayList<>();
        if (clientNode != null) {
            sources.add("client " + clientNode);
        }
        if (peerNode != null) {
            sources.add("peer " + peerNode);
        }
        if (link != null) {
            sources.add("switch port " + link);
        }
        return String.join(" and ", sources);
    }
}
