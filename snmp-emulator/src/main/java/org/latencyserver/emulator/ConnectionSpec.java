package org.latencyserver.emulator;

/**
 * A connection of the Latency Server that push mode reports with {@code PutMibUpdates}: the
 * server's index_ref and the scenario names of its client node, peer node and link.
 *
 * <p>Immutable and thread-safe.
 *
 * @param indexRef the server's connection index (IDL short, 0..32767)
 * @param client node name of the client workstation
 * @param peer node name of the peer workstation
 * @param link link name of the intermediate switch port
 */
public record ConnectionSpec(int indexRef, String client, String peer, String link) {
}
