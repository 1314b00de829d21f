package org.latencyserver.testbed;

import java.util.Locale;

/**
 * A testbed's status for people: one line per host, switch and port. Programs read the status
 * file instead. Secrets are not shown (they are in the status file).
 *
 * <p>Stateless; thread-safe.
 */
final class StatusText {

    private StatusText() {
    }

    /** @return the text, lines ending in a newline */
    static String of(final TestbedStatus status) {
        final StringBuilder text = new StringBuilder();
        text.append("testbed ").append(status.testbed()).append(" (namespaces ").append(status.prefix()).append("*)\n");
        for (final TestbedStatus.Switch sw : status.switches()) {
            text.append(String.format(Locale.ROOT, "  switch %-13s %-18s snmpd %s:%d (pid %d)%n", sw.name(), sw.namespace(),
                sw.managementAddress(), status.snmp().port(), sw.snmpd().pid()));
            for (final TestbedStatus.Port port : sw.ports()) {
                text.append(String.format(Locale.ROOT, "    port %-13s ifIndex %-3d toward %-13s %s%n", port.name(), port.ifIndex(),
                    port.toward(), port.bottleneck() == null ? "no bottleneck"
                        : String.format(Locale.ROOT, "tbf %s Mbit/s (speed_mbps %d), burst %d KiB, latency %d ms",
                            plain(port.bottleneck().rateMbit()), port.bottleneck().speedMbps(), port.bottleneck().burstKbyte(),
                            port.bottleneck().latencyMs())));
            }
        }
        for (final TestbedStatus.Host host : status.hosts()) {
            text.append(String.format(Locale.ROOT, "  host   %-13s %-18s %s/%d on %s, snmpd %s:%d (pid %d)%n", host.name(),
                host.namespace(), host.address(), host.prefixLength(), host.switchName(), host.snmpd().address(),
                status.snmp().port(), host.snmpd().pid()));
        }
        return text.toString();
    }

    private static String plain(final double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
