package org.latencyserver.orb;

import static org.latencyserver.orb.NamingLookup.bindings;
import static org.latencyserver.orb.NamingLookup.boundOrNull;
import static org.latencyserver.orb.NamingLookup.child;
import static org.latencyserver.orb.Partitions.BY_CLIENT;
import static org.latencyserver.orb.Partitions.INDEX_RANGES;
import static org.latencyserver.orb.Partitions.PER_PARTITION;
import static org.latencyserver.orb.Partitions.answers;
import static org.latencyserver.orb.Partitions.byClientName;
import static org.latencyserver.orb.Partitions.partitionName;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.latencyserver.orb.Partitions.ConflictException;
import org.latencyserver.orb.Partitions.IndexRange;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.Binding;
import org.omg.CosNaming.BindingType;
import org.omg.CosNaming.NameComponent;
import org.omg.CosNaming.NamingContext;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;

/**
 * The checks a partition's server makes under the deployment's root context before it claims its
 * names (see {@link Partitions#claim}): that the partition is not served already, that its index
 * ranges overlap no other partition's and its index_ref scope matches theirs, and that none of its
 * client nodes is bound to another live partition; and the clearing of the ranges it published in
 * an earlier run. A refusal is a {@link ConflictException} naming both partitions.
 *
 * <p>Thread-safety: stateless; every method makes its own calls.
 */
final class PartitionClaimChecks {

    private PartitionClaimChecks() {
    }

    /** Refuses a second server of one partition while the first answers. */
    static void checkNotRunning(final NamingContext rootContext, final String root, final String partition)
        throws ConflictException {
        final org.omg.CORBA.Object earlier = boundOrNull(rootContext, partition, partitionName(root, partition));
        if (earlier != null && answers(earlier)) {
            throw new ConflictException("partition '" + partition + "' is already served: " + partitionName(root, partition)
                + " is bound to a server that is running; one server per partition");
        }
    }

    static void checkRanges(final NamingContext rootContext, final String root, final String partition,
                                    final List<IndexRange> ranges, final boolean perPartition) throws ConflictException {
        final NamingContext published = child(rootContext, INDEX_RANGES);
        if (published == null) {
            return;
        }
        for (final Binding other : bindings(published)) {
            final String otherPartition = other.binding_name[0].id;
            if (other.binding_type != BindingType.ncontext || otherPartition.equals(partition)) {
                continue;
            }
            final NamingContext theirs = child(published, otherPartition);
            if (theirs == null) {
                continue;
            }
            final List<Binding> theirBindings = bindings(theirs);
            final boolean theirsPerPartition = theirBindings.stream()
                .anyMatch(binding -> PER_PARTITION.equals(binding.binding_name[0].id));
            if (!theirBindings.isEmpty() && theirsPerPartition != perPartition) {
                throw new ConflictException("partition '" + otherPartition + "' numbers its index_refs " + scope(theirsPerPartition)
                    + " (published under " + root + "/" + INDEX_RANGES + "/" + otherPartition + "), partition '" + partition
                    + "' " + scope(perPartition) + "; every partition of a deployment gives the same server.index_ref_scope");
            }
            if (perPartition) {
                continue;
            }
            for (final Binding rangeBinding : theirBindings) {
                final IndexRange their = IndexRange.parse(rangeBinding.binding_name[0].id);
                if (their == null) {
                    continue;
                }
                for (final IndexRange mine : ranges) {
                    final IndexRange both = mine.overlap(their);
                    if (both != null) {
                        throw new ConflictException("index_ref " + both.describe() + " of partition '" + partition + "' (its range "
                            + mine + ") overlaps partition '" + otherPartition + "' (its range " + their + ", published as " + root + "/"
                            + INDEX_RANGES + "/" + otherPartition + "/" + their + "); give each partition index_refs of its own"
                            + " (if '" + otherPartition + "' was retired, unbind " + root + "/" + INDEX_RANGES + "/" + otherPartition
                            + " from the naming service)");
                    }
                }
            }
        }
    }

    private static String scope(final boolean perPartition) {
        return perPartition ? "within the partition (server.index_ref_scope: partition)"
            : "across the deployment (server.index_ref_scope: deployment)";
    }

    static void checkClients(final ORB orb, final NamingContext rootContext, final String root,
                                     final String partition, final Collection<String> clientNodes) throws ConflictException {
        final NamingContext byClient = child(rootContext, BY_CLIENT);
        if (byClient == null) {
            return;
        }
        final Map<String, Boolean> aliveByIor = new HashMap<>();
        final Map<String, String> owners = partitionsByIor(orb, rootContext);
        for (final String node : new TreeSet<>(clientNodes)) {
            final org.omg.CORBA.Object bound = boundOrNull(byClient, node, byClientName(root, node));
            if (bound == null) {
                continue;
            }
            final String ior = orb.object_to_string(bound);
            final String owner = owners.get(ior);
            if (partition.equals(owner)) {
                continue; // this partition's earlier run
            }
            if (aliveByIor.computeIfAbsent(ior, unused -> answers(bound))) {
                throw new ConflictException("client node '" + node + "' of partition '" + partition + "' is bound as "
                    + byClientName(root, node) + " to " + (owner == null ? "a server that is no partition registered under "
                    + root : "partition '" + owner + "'") + ", which is running; a client workstation belongs to one partition"
                    + " (move it out of one configuration, or stop that server first)");
            }
        }
    }

    /** @return each registered partition's server by its stringified reference */
    private static Map<String, String> partitionsByIor(final ORB orb, final NamingContext rootContext) {
        final Map<String, String> owners = new HashMap<>();
        for (final Binding binding : bindings(rootContext)) {
            if (binding.binding_type != BindingType.nobject) {
                continue;
            }
            try {
                owners.put(orb.object_to_string(rootContext.resolve(binding.binding_name)), binding.binding_name[0].id);
            } catch (org.omg.CORBA.UserException e) {
                // Unbound meanwhile: it owns nothing.
            }
        }
        return owners;
    }

    /**
     * Unbinds the ranges this partition published before (its configuration may have changed since),
     * each through the naming service's root context with the whole name, as {@link References#bind}
     * binds: so a server that reaches the naming service over IIOP/TLS unbinds over TLS too.
     */
    static void clearOwnRanges(final ORB orb, final String naming, final String root, final NamingContext rootContext,
                                       final String partition) {
        final NamingContext published = child(rootContext, INDEX_RANGES);
        final NamingContext own = published == null ? null : child(published, partition);
        if (own == null) {
            return;
        }
        final NamingContextExt namingRoot = NamingContextExtHelper.narrow(orb.string_to_object(naming));
        for (final Binding binding : bindings(own)) {
            try {
                final List<NameComponent> name = new ArrayList<>(List.of(namingRoot.to_name(root)));
                name.add(new NameComponent(INDEX_RANGES, ""));
                name.add(new NameComponent(partition, ""));
                name.addAll(List.of(binding.binding_name));
                namingRoot.unbind(name.toArray(new NameComponent[0]));
            } catch (org.omg.CORBA.UserException e) {
                // Unbound meanwhile.
            }
        }
    }
}
