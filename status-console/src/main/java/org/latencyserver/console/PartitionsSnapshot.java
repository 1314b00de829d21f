package org.latencyserver.console;

import java.util.List;

/**
 * Every partition of a partitioned deployment at one moment, as {@code --all-partitions} shows
 * them: each partition's own {@link ConsoleSnapshot} and whether its server answers. Serialised to
 * JSON for the web page ({@code /api/snapshot}, {@code /events}).
 *
 * @param root       the deployment's name in the naming service, e.g. {@code LatencyServer}
 * @param naming     the naming service's reference
 * @param problem    why the partitions could not be listed (naming service unreachable), or empty
 * @param partitions every partition registered under the root, by name
 * @param down       the partitions whose server did not answer when last asked, by name (not those not asked yet)
 */
public record PartitionsSnapshot(String root, String naming, String problem, List<PartitionView> partitions, List<String> down) {

    /**
     * @param root       see the record
     * @param naming     see the record
     * @param problem    see the record
     * @param partitions see the record
     * @return the snapshot, with {@code down} taken from the partitions
     */
    static PartitionsSnapshot of(final String root, final String naming, final String problem, final List<PartitionView> partitions) {
        return new PartitionsSnapshot(root, naming, problem, List.copyOf(partitions),
            partitions.stream().filter(p -> p.asked() && !p.up()).map(PartitionView::partition).toList());
    }

    /**
     * One partition.
     *
     * @param partition its name, e.g. {@code p1}
     * @param name      its server's name in the naming service, e.g. {@code LatencyServer/p1}
     * @param up        whether its server answered at the last refresh (false before the first answer)
     * @param asked     whether its server was asked yet (a partition just listed was not: neither up nor down)
     * @param table     its server's table, as the single-server console shows it (the last good one while down)
     */
    public record PartitionView(String partition, String name, boolean up, boolean asked, ConsoleSnapshot table) {
    }
}
