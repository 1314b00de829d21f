package org.latencyserver.orb;

import static org.latencyserver.orb.NamingLookup.bindings;
import static org.latencyserver.orb.NamingLookup.boundOrNull;
import static org.latencyserver.orb.NamingLookup.child;
import static org.latencyserver.orb.NamingLookup.context;
import static org.latencyserver.orb.NamingLookup.objectIdsByIor;
import static org.latencyserver.orb.NamingLookup.unbindEach;
import static org.latencyserver.orb.NamingLookup.unbindStale;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import org.omg.CosNaming.Binding;
import org.omg.CosNaming.BindingType;
import org.omg.CosNaming.NamingContext;

/**
 * The names of a partitioned deployment in a CosNaming service, and the checks a partition's server
 * makes before it claims them. Only standard CosNaming calls ({@code resolve}, {@code list},
 * {@code bind}, {@code unbind}), so any interoperable naming service holds them (JacORB's and
 * omniORB's omniNames are tested).
 *
 * <p>Under the deployment's root name ({@code server.name}, by default {@code LatencyServer}):
 * <ul>
 *   <li>{@code ROOT/<partition>}: the partition's server (an object binding);</li>
 *   <li>{@code ROOT/by-client/<node>}: the server of the partition that owns client workstation
 *       {@code node} (an application or agent on that node resolves it);</li>
 *   <li>{@code ROOT/index-ranges/<partition>/<lo>-<hi>}: the {@code index_ref} ranges the partition
 *       serves, one binding per contiguous range (bound to its server, the name carries the range),
 *       so a starting partition sees every other partition's ranges, even of one that is down;
 *       or, for a partition that numbers its {@code index_ref}s on its own
 *       ({@code server.index_ref_scope: partition}), the one binding
 *       {@code ROOT/index-ranges/<partition>/}{@value #PER_PARTITION}.</li>
 * </ul>
 * A partition may therefore not be called {@value #BY_CLIENT} or {@value #INDEX_RANGES}.
 *
 * <p>The CosNaming lookups themselves are {@link NamingLookup}'s.
 *
 * <p>Thread-safety: stateless; every method makes its own calls.
 */
public final class Partitions {

    /**
     * The name clients look the server up by when they are given a naming service but no
     * {@code --server}: the server's default {@code server.name}, a server or a directory of partitions.
     */
    public static final String DEFAULT_SERVER_NAME = "LatencyServer";
    /**
     * @param server the server as a client was given it ({@code --server}), or null
     * @param naming the naming service it was given, or null
     * @return the server, or {@link #DEFAULT_SERVER_NAME} when only a naming service was given (null when neither)
     */
    public static String serverOrDefault(final String server, final String naming) {
        return server == null && naming != null ? DEFAULT_SERVER_NAME : server;
    }

    /** The context of the by-client bindings, under the root. */
    public static final String BY_CLIENT = "by-client";
    /** The context of the published index ranges, under the root. */
    public static final String INDEX_RANGES = "index-ranges";
    /**
     * The one binding under {@code index-ranges/<partition>} of a partition whose index_refs are unique only
     * within it: it publishes no ranges, and every partition of the deployment must number its own too.
     */
    public static final String PER_PARTITION = "per-partition";
    /** What a partition's name may be: letters, digits, {@code _} and {@code -} (a name component without escapes). */
    public static final Pattern PARTITION_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private Partitions() {
    }

    /**
     * @param partition a candidate partition name
     * @return why it cannot be a partition's name, or empty when it can
     */
    public static Optional<String> refusal(final String partition) {
        if (partition == null || !PARTITION_NAME.matcher(partition).matches()) {
            return Optional.of("a partition's name is 1 to 64 letters, digits, '_' or '-', was '" + partition + "'");
        }
        if (partition.equals(BY_CLIENT) || partition.equals(INDEX_RANGES)) {
            return Optional.of("'" + partition + "' is the name of a directory under the server name, not a partition");
        }
        return Optional.empty();
    }

    /** @return the stringified name of a partition's server, e.g. {@code LatencyServer/p1} */
    public static String partitionName(final String root, final String partition) {
        return root + "/" + escape(partition);
    }

    /** @return the stringified name of a client node's binding, e.g. {@code LatencyServer/by-client/ws7} */
    public static String byClientName(final String root, final String node) {
        return root + "/" + BY_CLIENT + "/" + escape(node);
    }

    /** @return the stringified name of one published index range, e.g. {@code LatencyServer/index-ranges/p1/1-200} */
    public static String rangeName(final String root, final String partition, final IndexRange range) {
        return root + "/" + INDEX_RANGES + "/" + escape(partition) + "/" + range;
    }

    /**
     * Escapes one name component for a stringified CosNaming name: {@code /}, {@code .} and {@code \}
     * get a backslash (a node called {@code ws1.lab} stays one component, not id {@code ws1} kind {@code lab}).
     *
     * @param component a name component's id
     * @return it, escaped
     */
    public static String escape(final String component) {
        return component.replace("\\", "\\\\").replace("/", "\\/").replace(".", "\\.");
    }

    /**
     * A contiguous range of {@code index_ref}s, both ends included.
     *
     * @param lowest  the first index_ref
     * @param highest the last index_ref, {@code >= lowest}
     */
    public record IndexRange(int lowest, int highest) {

        /** @throws IllegalArgumentException when highest is below lowest */
        public IndexRange {
            if (highest < lowest) {
                throw new IllegalArgumentException("an index range ends at or after its start, was " + lowest + "-" + highest);
            }
        }

        /**
         * @param other another range
         * @return the index_refs both hold, or null when none
         */
        public IndexRange overlap(final IndexRange other) {
            final int low = Math.max(lowest, other.lowest);
            final int high = Math.min(highest, other.highest);
            return low <= high ? new IndexRange(low, high) : null;
        }

        /**
         * @param text {@code LO-HI}, as {@link #toString()} writes it
         * @return the range, or null when the text is no range
         */
        public static IndexRange parse(final String text) {
            final int dash = text.indexOf('-');
            if (dash <= 0) {
                return null;
            }
            try {
                final int low = Integer.parseInt(text.substring(0, dash));
                final int high = Integer.parseInt(text.substring(dash + 1));
                return high < low ? null : new IndexRange(low, high);
            } catch (NumberFormatException e) {
                return null;
            }
        }

        /** @return {@code LO-HI}, or the one index_ref when the range holds one */
        public String describe() {
            return lowest == highest ? Integer.toString(lowest) : toString();
        }

        /** @return {@code LO-HI} (the binding's name) */
        @Override
        public String toString() {
            return lowest + "-" + highest;
        }
    }

    /**
     * @param indexRefs a partition's index_refs
     * @return them as the fewest contiguous ranges, ascending
     */
    public static List<IndexRange> rangesOf(final Collection<Integer> indexRefs) {
        final List<IndexRange> ranges = new ArrayList<>();
        int low = 0;
        int high = -1;
        for (final int ref : new TreeSet<>(indexRefs)) {
            if (high >= low && ref == high + 1) {
                high = ref;
                continue;
            }
            if (high >= low) {
                ranges.add(new IndexRange(low, high));
            }
            low = ref;
            high = ref;
        }
        if (high >= low) {
            ranges.add(new IndexRange(low, high));
        }
        return ranges;
    }

    /** Why a partition may not claim its names: another partition holds an overlapping range or a live client node. */
    public static final class ConflictException extends Exception {
        private static final long serialVersionUID = 1L;

        /** @param message both partitions and what they both claim */
        public ConflictException(final String message) {
            super(message);
        }
    }

    /**
     * Checks that a partition may claim its index ranges and client nodes, clears the ranges it
     * published in an earlier run, and returns every name it is to bind (and keep bound): its own,
     * its ranges and its client nodes. Binding is the caller's (a {@link NameKeeper}).
     *
     * <p>Refused: a root name bound to a single server that answers; a partition whose name is bound
     * to a server that answers (it runs already); an index range overlapping one published by
     * another partition (whether that partition's server runs or not: the range is its
     * configuration); and a client node bound {@code by-client} to a server that answers (another
     * live partition). A node bound to a server that is gone (this partition's earlier run, or a
     * retired partition) is taken over, and so is a root name a stopped single server left bound.
     *
     * @param orb         the ORB to call with
     * @param naming      the naming service's reference
     * @param root        the root name ({@code server.name})
     * @param partition   this partition's name, {@link #refusal} empty
     * @param ranges      its index ranges ({@link #rangesOf})
     * @param perPartition whether its index_refs are unique only within it ({@code server.index_ref_scope:
     *                    partition}): then no range is checked or published, and every other partition must
     *                    number its own too; else its ranges may not overlap another partition's
     * @param clientNodes its client workstations
     * @return the names to bind to the partition's server, its own first
     * @throws ConflictException         naming both partitions and what they both claim
     * @throws References.ReferenceException when the naming service cannot be reached
     */
    public static List<String> claim(final ORB orb, final String naming, final String root, final String partition,
                                     final List<IndexRange> ranges, final boolean perPartition,
                                     final Collection<String> clientNodes) throws ConflictException {
        final List<String> names = new ArrayList<>();
        names.add(partitionName(root, partition));
        try {
            NamingContext rootContext;
            try {
                rootContext = context(orb, naming, root);
            } catch (NamingLookup.NotADirectory e) {
                if (answers(e.bound)) {
                    throw new ConflictException("'" + root + "' is registered in " + naming + " as a single server that is"
                        + " running, not as a directory of partitions; stop that server or give the partitions another server.name");
                }
                unbindStale(orb, naming, root);
                rootContext = null;
            }
            if (rootContext != null) {
                checkNotRunning(rootContext, root, partition);
                checkRanges(rootContext, root, partition, ranges, perPartition);
                checkClients(orb, rootContext, root, partition, clientNodes);
                clearOwnRanges(orb, naming, root, rootContext, partition);
            }
        } catch (SystemException e) {
            throw new References.ReferenceException("the naming service " + naming + " cannot be reached ("
                + References.describe(e) + ")");
        }
        if (perPartition) {
            names.add(root + "/" + INDEX_RANGES + "/" + escape(partition) + "/" + PER_PARTITION);
        } else {
            for (final IndexRange range : ranges) {
                names.add(rangeName(root, partition, range));
            }
        }
        for (final String node : new TreeSet<>(clientNodes)) {
            names.add(byClientName(root, node));
        }
        return names;
    }

    /**
     * The partitions registered under a root: its object bindings (the directories {@value #BY_CLIENT}
     * and {@value #INDEX_RANGES} are contexts and left out).
     *
     * @param orb    the ORB
     * @param naming the naming service's reference
     * @param root   the root name, e.g. {@code LatencyServer}
     * @return partition name → the stringified name to resolve it by, sorted by partition
     * @throws References.ReferenceException when the naming service cannot be reached or the root is not a
     *                                       directory of partitions
     */
    public static Map<String, String> list(final ORB orb, final String naming, final String root) {
        final NamingContext rootContext;
        try {
            rootContext = context(orb, naming, root);
        } catch (SystemException e) {
            throw new References.ReferenceException("the naming service " + naming + " cannot be reached (" + References.describe(e) + ")");
        } catch (NamingLookup.NotADirectory e) {
            throw new References.ReferenceException("'" + root + "' in " + naming + " is a single server, not a directory of"
                + " partitions: show it without --all-partitions");
        }
        if (rootContext == null) {
            throw new References.ReferenceException("no partition is registered: '" + root + "' is not bound in " + naming);
        }
        final Map<String, String> partitions = new java.util.TreeMap<>();
        for (final Binding binding : bindings(rootContext)) {
            if (binding.binding_type == BindingType.nobject) {
                final String id = binding.binding_name[0].id;
                partitions.put(id, partitionName(root, id));
            }
        }
        return partitions;
    }

    /** Refuses a second server of one partition while the first answers. */
    private static void checkNotRunning(final NamingContext rootContext, final String root, final String partition)
        throws ConflictException {
        final org.omg.CORBA.Object earlier = boundOrNull(rootContext, partition, partitionName(root, partition));
        if (earlier != null && answers(earlier)) {
            throw new ConflictException("partition '" + partition + "' is already served: " + partitionName(root, partition)
                + " is bound to a server that is running; one server per partition");
        }
    }

    private static void checkRanges(final NamingContext rootContext, final String root, final String partition,
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

    private static void checkClients(final ORB orb, final NamingContext rootContext, final String root,
                                     final String partition, final Collection<String> clientNodes) throws ConflictException {
        final NamingContext byClient = child(rootContext, BY_CLIENT);
        if (byClient == null) {
            return;
        }
        final Map<String, Boolean> aliveByIor = new HashMap<>();
        // Each registered partition's server by its stringified reference.
        final Map<String, String> owners = objectIdsByIor(orb, rootContext);
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


    /**
     * Unbinds the ranges this partition published before (its configuration may have changed since),
     * each through the naming service's root context with the whole name, as {@link References#bind}
     * binds: so a server that reaches the naming service over IIOP/TLS unbinds over TLS too.
     */
    private static void clearOwnRanges(final ORB orb, final String naming, final String root, final NamingContext rootContext,
                                       final String partition) {
        final NamingContext published = child(rootContext, INDEX_RANGES);
        final NamingContext own = published == null ? null : child(published, partition);
        if (own == null) {
            return;
        }
        unbindEach(orb, naming, own, root, INDEX_RANGES, partition);
    }

    /** @return whether the object answers (a server that was killed, or restarted since, does not) */
    public static boolean answers(final org.omg.CORBA.Object object) {
        try {
            return !object._non_existent();
        } catch (SystemException e) {
            return false;
        }
    }
}
