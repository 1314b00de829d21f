package org.latencyserver.emulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.latencyserver.core.input.InputMapping;

/**
 * Reads a scenario's {@code connections} (push mode): each has a unique {@code index_ref} and
 * names a declared client node, peer node and link. Each fault is reported through the entry's
 * {@link InputMapping}. Stateless.
 */
final class ScenarioConnectionsReader {
    private static final Set<String> CONNECTION = Set.of("index_ref", "client", "peer", "link");

    private ScenarioConnectionsReader() {
    }

    /** The connections (push mode), each naming declared agents and a unique index_ref. */
    static List<ConnectionSpec> connections(InputMapping top, DeclaredAgents declaredNodes, DeclaredAgents declaredLinks) {
        List<ConnectionSpec> connections = new ArrayList<>();
        Map<Long, String> indexRefs = new HashMap<>();
        for (InputMapping m : top.sections("connections")) {
            m.allowOnly(CONNECTION);
            Long indexRef = m.requiredInteger("index_ref", 0, Short.MAX_VALUE, "the connection's index_ref");
            if (indexRef != null) {
                String first = indexRefs.putIfAbsent(indexRef, m.path());
                if (first != null) {
                    m.fault("index_ref", "index_ref " + indexRef + " is used by another connection, " + first);
                }
            }
            String client = reference(m, "client", declaredNodes);
            String peer = reference(m, "peer", declaredNodes);
            String link = reference(m, "link", declaredLinks);
            if (indexRef != null && client != null && peer != null && link != null) {
                connections.add(new ConnectionSpec(indexRef.intValue(), client, peer, link));
            }
        }
        return connections;
    }

    private static String reference(InputMapping m, String key, DeclaredAgents declared) {
        String name = m.requiredText(key, "the name of a " + declared.kind + " declared above");
        if (name != null && !declared.positions.containsKey(name)) {
            if (declared.incomplete) {
                return null;
            }
            m.fault(key, "'" + key + "' names an unknown " + declared.kind + " '" + name + "'" + declared.declaredText());
            return null;
        }
        return name;
    }
}
