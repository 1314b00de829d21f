package org.latencyserver.server.table;

import org.latencyserver.core.state.PortState;

/**
 * One set of SNMP values for a connection, as the thesis's {@code TableRow} keeps them: whole
 * percents, {@code -1} where no value has arrived; one port value per hop of the connection's path.
 *
 * <p>Immutable and thread-safe.
 *
 * @param clientCpuPercent client workstation CPU utilisation, 0..100 or −1
 * @param peerCpuPercent   peer workstation CPU utilisation, 0..100 or −1
 * @param ports            each switch port's utilisation, in path order (see {@link PortPercents})
 */
public record MibReading(short clientCpuPercent, short peerCpuPercent, PortPercents ports) {

    /** No values yet. */
    public static final MibReading NONE = new MibReading((short) -1, (short) -1, (short) -1);

    /**
     * @throws IllegalArgumentException naming the value outside −1..100
     * @throws NullPointerException     when the ports are missing
     */
    public MibReading {
        check("client CPU", clientCpuPercent);
        check("peer CPU", peerCpuPercent);
        java.util.Objects.requireNonNull(ports, "ports");
    }

    /**
     * A connection with one switch port.
     *
     * @param portPercent switch port utilisation, 0..100 or −1; or 101 ({@link PortState#SATURATED_CODE}) when the
     *                    poller saw the port carry its rate and drop
     */
    public MibReading(final short clientCpuPercent, final short peerCpuPercent, final short portPercent) {
        this(clientCpuPercent, peerCpuPercent, PortPercents.single(checkedPort(portPercent)));
    }

    private static short checkedPort(final short portPercent) {
        if (portPercent != PortState.SATURATED_CODE) {
            check("port", portPercent);
        }
        return portPercent;
    }

    /** @return the path's worst port, the thesis's one port value (see {@link PortPercents#worst()}) */
    public short portPercent() {
        return ports.worst();
    }

    private static void check(final String what, final short percent) {
        if (percent < -1 || percent > 100) {
            throw new IllegalArgumentException(what + " utilisation must be 0..100 % (or -1 for unknown), was " + percent);
        }
    }
}
