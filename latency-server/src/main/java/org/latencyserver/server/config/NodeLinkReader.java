package org.latencyserver.server.config;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputMapping;
import org.latencyserver.core.state.WorkstationType;

/**
 * Reads the configuration's {@code nodes} and {@code links} lists: each item's keys, its unique name, what only a node
 * (id, workstation type) or only a link has, and its {@code mib_source} and {@code snmp} block. An item is kept only
 * when it adds no fault; every declared name is kept, so that a reference to a faulty one is not also "unknown".
 *
 * <p>Not thread-safe; used once, by the {@link ConfigurationLoader} that made it, nodes before links.
 */
final class NodeLinkReader {

    private final InputFaults faults;
    private final SnmpBlockReader snmpReader;

    /** @param faults where every fault of the file goes */
    NodeLinkReader(final InputFaults faults) {
        this.faults = faults;
        this.snmpReader = new SnmpBlockReader(faults);
    }

    /**
     * Nodes or links: every declared name (so that a reference to a faulty one is not also
     * reported as unknown) and those that passed every check, by name.
     *
     * @param <T> {@link NodeConfig} or {@link LinkConfig}
     */
    record NamedSet<T>(Set<String> declared, Map<String, T> valid) {
    }

    /** What a node and a link both have: where its utilisation comes from, and how to poll it. */
    private record Source(MibSource mibSource, SnmpBlockReader.Result snmp) {
    }

    /**
     * Reads what only a node or only a link has.
     *
     * @param <T> {@link NodeConfig} or {@link LinkConfig}
     */
    private interface OwnKeys<T> {
        /**
         * Reads the item's own keys, reporting their faults.
         *
         * @param name the item's name, null when missing or bad (reported)
         * @return what builds the item from its source once the whole item is known to be fault-free
         */
        Function<Source, T> read(InputMapping item, String name);
    }

    NamedSet<NodeConfig> nodes(final InputMapping top) {
        top.require(ServerOption.NODES.key(), "nodes, " + ServerOption.NODES.doc());
        final Map<String, WorkstationType> types = new HashMap<>(Map.of("TAC-3", WorkstationType.TAC_3, "TAC-4",
            WorkstationType.TAC_4));
        final FirstPlaces<Long> ids = new FirstPlaces<>();
        return named(top, SnmpBlockReader.Owner.NODE, (node, name) -> {
            final Long id = OptionReads.requiredWhole(node, ServerOption.NODES_NODE_ID,
                "node_id, the IDL's client_node/peer_node number");
            final String typeName = node.requiredText("workstation_type", "workstation_type, e.g. TAC-4, as profiles name it");
            if (id != null) {
                final String first = ids.earlier(id, node);
                if (first != null) {
                    node.fault("node_id", "node_id " + id + " is already used by " + first);
                }
            }
            // TAC-3 and TAC-4 keep the thesis's codes; other types are numbered from 5 in order of appearance.
            final WorkstationType type = typeName == null ? null
                : types.computeIfAbsent(typeName, t -> new WorkstationType(t, nextCode(types)));
            return source -> new NodeConfig(name, id.shortValue(), type, source.mibSource(), source.snmp().access());
        });
    }

    private static int nextCode(final Map<String, WorkstationType> types) {
        return types.values().stream().mapToInt(WorkstationType::code).max().orElse(4) + 1;
    }

    NamedSet<LinkConfig> links(final InputMapping top) {
        return named(top, SnmpBlockReader.Owner.LINK, (link, name) -> source -> new LinkConfig(name, source.mibSource(),
            source.snmp().access(), source.snmp().ifIndex(), source.snmp().speedMbps(), source.snmp().discardsOid()));
    }

    /**
     * Reads the list of nodes or links: each item's keys, its required and unique name, its own
     * keys, its {@code mib_source} and {@code snmp} block; an item is built only without faults.
     */
    private <T> NamedSet<T> named(final InputMapping top, final SnmpBlockReader.Owner owner, final OwnKeys<T> ownKeys) {
        final String word = owner.word();
        final boolean nodes = owner == SnmpBlockReader.Owner.NODE;
        final ServerOption list = nodes ? ServerOption.NODES : ServerOption.LINKS;
        final ServerOption mibSource = nodes ? ServerOption.NODES_MIB_SOURCE : ServerOption.LINKS_MIB_SOURCE;
        final Set<String> declared = new LinkedHashSet<>();
        final Map<String, T> valid = new LinkedHashMap<>();
        final FirstPlaces<String> names = new FirstPlaces<>();
        final Map<String, String> elsewhere = snmpKeysBelongInBlock(owner);
        for (final InputMapping item : top.sections(list.key())) {
            final int before = faults.count();
            OptionReads.allowOnlyOptionsOf(item, list.path() + "[]", elsewhere);
            final String name = item.requiredText("name", "name, which connections use to refer to the " + word);
            final Function<Source, T> build = ownKeys.read(item, name);
            final MibSource source = item.choice(mibSource.key(), SnmpBlockReader.MIB_SOURCES.get(mibSource.defaultString()),
                SnmpBlockReader.MIB_SOURCES);
            final SnmpBlockReader.Result snmp = snmpReader.read(item, source, owner);
            if (name != null) {
                final String first = names.earlier(name, item);
                if (first != null) {
                    item.fault("name", "a second " + word + " named '" + name + "', after " + first);
                }
                declared.add(name);
            }
            if (faults.count() == before) {
                valid.put(name, build.apply(new Source(source, snmp)));
            }
        }
        return new NamedSet<>(declared, valid);
    }

    private static Map<String, String> snmpKeysBelongInBlock(final SnmpBlockReader.Owner owner) {
        final Map<String, String> elsewhere = new HashMap<>();
        SnmpBlockReader.keys(owner).forEach(key -> elsewhere.put(key, "it belongs in the snmp block"));
        return elsewhere;
    }
}
