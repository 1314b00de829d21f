package org.latencyserver.emulator;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The names of one kind of agent (nodes or links) of a scenario in declaration order, for step
 * keys and references. Immutable once made.
 */
final class DeclaredAgents {
    /** How many names a fault lists before it only counts the rest. */
    private static final int NAMES_LISTED = 10;

    /** The names, in declaration order. */
    final List<String> names;
    /** Each name's position in {@link #names}. */
    final Map<String, Integer> positions = new HashMap<>();
    /** {@code node} or {@code link}, as faults name the kind. */
    final String kind;
    /** Whether a faulty group's names are missing, so that an unknown name is no new fault. */
    final boolean incomplete;

    DeclaredAgents(Set<String> names, String kind, boolean incomplete) {
        this.names = List.copyOf(names);
        this.kind = kind;
        this.incomplete = incomplete;
        for (int i = 0; i < this.names.size(); i++) {
            positions.put(this.names.get(i), i);
        }
    }

    /** @return what a fault says about the declared names: some of them, and how many */
    String declaredText() {
        return names.isEmpty() ? " (none are declared)" : "; declared " + kind + "s: " + listed(names);
    }

    /** @return the first few names, and how many there are in all when there are more */
    static String listed(List<String> names) {
        String shown = String.join(", ", names.subList(0, Math.min(NAMES_LISTED, names.size())));
        return names.size() <= NAMES_LISTED ? shown : shown + " … (" + names.size() + " in all)";
    }
}
