package org.latencyserver.server.config;

import java.util.Objects;

/**
 * An intermediate switch port between workstations (an item of {@code links:}); its utilisation
 * above 90 % adds latency (thesis section 4.2.3, constraint 4).
 *
 * <p>Immutable and thread-safe.
 *
 * @param name      unique among links; connections refer to it by {@code link}; {@code name}, required
 * @param mibSource where its utilisation comes from; {@code mib_source}, default push
 * @param snmp      the switch's SNMP agent when {@code mib_source} is snmp (required then), else null
 * @param ifIndex   the port's IF-MIB ifIndex, ≥ 1, when polled ({@code snmp.if_index}, required
 *                  then); 0 for a pushed link
 * @param speedMbps the port speed utilisation is computed against, Mbit/s; {@code snmp.speed_mbps},
 *                  optional; 0 means read ifHighSpeed from the agent
 * @param discardsOid the numeric OID of a counter of the packets the port dropped ({@code snmp.discards_oid},
 *                    e.g. IF-MIB ifOutDiscards of the port); while it moves and the port carries its rate, the port
 *                    is SATURATED. Null: saturation is not observed
 */
public record LinkConfig(String name, MibSource mibSource, SnmpAccess snmp, int ifIndex, long speedMbps, String discardsOid) {

    /** A link whose saturation is not observed. */
    public LinkConfig(final String name, final MibSource mibSource, final SnmpAccess snmp, final int ifIndex, final long speedMbps) {
        this(name, mibSource, snmp, ifIndex, speedMbps, null);
    }

    /**
     * @throws IllegalArgumentException when the SNMP block does not match the MIB source or a number is out of range
     */
    public LinkConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(mibSource, "mibSource");
        if ((mibSource == MibSource.SNMP) != (snmp != null)) {
            throw new IllegalArgumentException("link " + name + ": an snmp block is required exactly when mib_source is snmp");
        }
        if (snmp != null ? ifIndex < 1 : ifIndex != 0 || speedMbps != 0) {
            throw new IllegalArgumentException("link " + name + ": if_index must be >= 1 when polled, and absent when pushed; was "
                + ifIndex);
        }
        if (discardsOid != null && snmp == null) {
            throw new IllegalArgumentException("link " + name + ": a discards OID is read only from a polled link");
        }
        if (speedMbps < 0) {
            throw new IllegalArgumentException("link " + name + ": speed must be >= 0 Mbit/s, was " + speedMbps);
        }
    }

    /** @return whether the port speed is read from the agent's ifHighSpeed rather than configured */
    public boolean speedFromAgent() {
        return speedMbps == 0;
    }
}
