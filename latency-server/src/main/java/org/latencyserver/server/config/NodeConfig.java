package org.latencyserver.server.config;

import java.util.Objects;
import org.latencyserver.core.state.WorkstationType;

/**
 * A workstation of the configuration (an item of {@code nodes:}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param name            unique among nodes; connections name their ends by it; {@code name}, required
 * @param nodeId          the IDL's {@code client_node}/{@code peer_node}, 1..32767, unique;
 *                        {@code node_id}, required
 * @param workstationType the type as profiles name it, with its IDL code: TAC-3 is 3, TAC-4 is 4,
 *                        other types get 5, 6, … in order of first appearance in the file;
 *                        {@code workstation_type}, required
 * @param mibSource       where its CPU utilisation comes from; {@code mib_source}, default push
 * @param snmp            its SNMP agent when {@code mib_source} is snmp (required then), else null
 */
public record NodeConfig(String name, short nodeId, WorkstationType workstationType, MibSource mibSource,
                         SnmpAccess snmp) {

    /**
     * @throws IllegalArgumentException when the id is out of range or the SNMP block does not match
     *                                  the MIB source
     */
    public NodeConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(workstationType, "workstationType");
        Objects.requireNonNull(mibSource, "mibSource");
        if (nodeId < 1) {
            throw new IllegalArgumentException("node " + name + ": node_id must be 1..32767, was " + nodeId);
        }
        if ((mibSource == MibSource.SNMP) != (snmp != null)) {
            throw new IllegalArgumentException("node " + name + ": an snmp block is required exactly when mib_source is snmp");
        }
        if (snmp != null && snmp.cpuSource() == null) {
            throw new IllegalArgumentException("node " + name + ": its snmp block needs a cpu_source");
        }
    }
}
