package org.latencyserver.server.launch;

import java.util.List;
import org.latencyserver.orb.NameKeeper;
import org.latencyserver.orb.Partitions;
import org.latencyserver.orb.References;
import org.latencyserver.server.config.IndexRefScope;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.table.ConnectionSpec;
import org.omg.CORBA.ORB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's names in the naming service: which names it binds ({@code server.name}, or a partition's name, index
 * ranges and client nodes once {@link Partitions#claim} found no other partition holding them), binding them under a
 * {@link NameKeeper}, and whether another live server holds them (a standby's takeover asks).
 *
 * <p>Thread-safety: holds no state of its own beyond what it is given; called on the thread that starts the server or
 * takes it over.
 */
final class ServerNames {

    /** The node's logger, so that a registration is logged under the same name as the rest of the start. */
    private static final Logger LOG = LoggerFactory.getLogger(LatencyServerNode.class);

    private final ORB orb;
    private final ServerContext context;
    /** The servant's reference, as activated in the root POA. */
    private final org.omg.CORBA.Object reference;

    ServerNames(final ORB orb, final ServerContext context, final org.omg.CORBA.Object reference) {
        this.orb = orb;
        this.context = context;
        this.reference = reference;
    }

    /**
     * Binds the server's names and keeps them bound.
     *
     * @param standby the pair this server is one of, or null
     * @return the keeper of the names, or null without a naming service
     * @throws LaunchFailure {@link LaunchFailure.Kind#NAMING_REFUSED} when the naming service cannot be reached or refuses
     *                       a name; {@link LaunchFailure.Kind#PARTITION_CONFLICT} when another partition holds what this
     *                       one claims
     */
    NameKeeper bind(final StandbyWiring standby) throws LaunchFailure {
        final ServerConfiguration configuration = context.configuration();
        final String naming = context.namingReference();
        final String registered = configuration.server().registeredName();
        final NameKeeper nameKeeper;
        try {
            nameKeeper = naming == null ? null : standby == null
                ? NameKeeper.bind(orb, naming, namesToKeep(configuration, naming), reference, context.nameCheckIntervalMillis())
                : NameKeeper.bind(orb, naming, namesToKeep(configuration, naming), reference,
                    standby.nameCheckIntervalMillis(context.nameCheckIntervalMillis()), standby.yielding());
        } catch (References.ReferenceException e) {
            throw new LaunchFailure(LaunchFailure.Kind.NAMING_REFUSED, "cannot register as '" + registered
                + "': " + e.getMessage() + "; " + NameKeeper.WHAT_TO_DO + ".");
        }
        if (nameKeeper != null) {
            LOG.info("registered as '{}' in {}{}", registered, naming, configuration.server().partition() == null ? ""
                : " with its client nodes under " + configuration.server().name() + "/" + Partitions.BY_CLIENT);
        }
        return nameKeeper;
    }

    /** @return whether another live server holds this server's registered name (asked before a takeover binds it) */
    boolean heldByAnotherLiveServer() {
        return StandbyWiring.heldByAnotherLiveServer(orb, context.namingReference(),
            context.configuration().server().registeredName(), reference);
    }

    /**
     * @return the names to bind in the naming service: {@code server.name} for the only server; for a
     *         partition's, its name, its index ranges and its client nodes, once {@link Partitions#claim} found
     *         no other partition holding them
     * @throws LaunchFailure {@link LaunchFailure.Kind#PARTITION_CONFLICT} naming both partitions and what both claim
     */
    private List<String> namesToKeep(final ServerConfiguration configuration, final String naming) throws LaunchFailure {
        final String partition = configuration.server().partition();
        if (partition == null) {
            return List.of(configuration.server().name());
        }
        final java.util.Set<Integer> indexRefs = new java.util.TreeSet<>();
        final java.util.Set<String> clientNodes = new java.util.TreeSet<>();
        for (final ConnectionSpec spec : configuration.connectionSpecs()) {
            indexRefs.add((int) spec.indexRef());
            clientNodes.add(spec.clientNodeName());
        }
        try {
            return Partitions.claim(orb, naming, configuration.server().name(), partition, Partitions.rangesOf(indexRefs),
                configuration.server().indexRefScope() == IndexRefScope.PARTITION,
                clientNodes);
        } catch (Partitions.ConflictException e) {
            throw new LaunchFailure(LaunchFailure.Kind.PARTITION_CONFLICT, "partition '" + partition + "' cannot start: "
                + e.getMessage());
        }
    }
}
