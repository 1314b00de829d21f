package org.latencyserver.server.config;

/**
 * A workstation of the configuration.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name                 unique name
 * @param nodeId               the IDL's {@code client_node}/{@code peer_node}, 1..32767, unique
 * @param workstationType      e.g. {@code TAC-4}; profiles are chosen for it
 * @param workstationTypeCode  3 TAC-3, 4 TAC-4, 5.. other types in order of appearance
 */
public record NodeConfig(String name, short nodeId, String workstationType, short workstationTypeCode) {
}
