package org.latencyserver.server.table;

/**
 * Values for some of a connection's three load sources: the client's CPU, the peer's CPU, the
 * switch port. A push sets the sources an operator feeds; a poll sets the sources the SNMP poller
 * reads; the others keep the connection's latest value. Merged on the update thread against the
 * newest reading there, so a push and a poll of one connection never undo each other.
 *
 * <p>Immutable and thread-safe.
 *
 * @param values    the new values; those of sources not set are ignored
 * @param setClient whether the client's CPU is set
 * @param setPeer   whether the peer's CPU is set
 * @param setPort   whether the switch ports are set (every hop of the path)
 */
public record MibUpdate(MibReading values, boolean setClient, boolean setPeer, boolean setPort) {

    /** @throws NullPointerException when {@code values} is null */
    public MibUpdate {
        java.util.Objects.requireNonNull(values, "values");
    }

    /** @return an update that sets all three sources */
    public static MibUpdate all(final MibReading values) {
        return new MibUpdate(values, true, true, true);
    }

    /**
     * @param latest the connection's latest reading, or null before the first
     * @return {@code latest} with the sources this update sets replaced
     */
    public MibReading mergeInto(final MibReading latest) {
        final MibReading current = latest == null ? MibReading.NONE : latest;
        return new MibReading(setClient ? values.clientCpuPercent() : current.clientCpuPercent(),
            setPeer ? values.peerCpuPercent() : current.peerCpuPercent(), setPort ? values.ports() : current.ports());
    }
}
