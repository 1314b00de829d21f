package org.latencyserver.server.config;

/**
 * Where a partition's {@code index_ref}s are unique ({@code server.index_ref_scope}).
 *
 * <p>An {@code index_ref} is an IDL {@code short}, so a deployment whose numbers are unique across
 * its partitions holds at most 32,767 connections in all; numbering per partition lifts that to
 * 32,767 per partition, at the price that a number names a connection only together with its
 * partition (clients find their partition through {@code <server.name>/by-client/<node>}, so
 * they need not know it) and that a connection moved to another partition may need a new number.
 *
 * <p>Immutable and thread-safe.
 */
public enum IndexRefScope implements ConfigWord {
    /** unique across the deployment: the start check refuses a range that overlaps another partition's ({@code deployment}) */
    DEPLOYMENT,
    /** unique within the partition only; every partition of the deployment must say so too ({@code partition}) */
    PARTITION
}
