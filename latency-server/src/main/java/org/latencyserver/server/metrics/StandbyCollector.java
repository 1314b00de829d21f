package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.function.Supplier;
import org.latencyserver.server.standby.StandbyCounters;

/**
 * The hot standby as this server sees it: its role, whether its acknowledged writes are on the
 * standby too, and the records sent and applied. Each scrape reads one {@link StandbyCounters}.
 * Thread-safe as the supplier is.
 */
final class StandbyCollector extends SnapshotCollector<StandbyCounters> {

    /** @param counters the pair's counters, read once per scrape */
    StandbyCollector(final Supplier<StandbyCounters> counters) {
        super(counters);
    }

    @Override
    MetricSnapshots families(final StandbyCounters now) {
        final GaugeFamily primary = new GaugeFamily("latency_server_standby_primary", null,
            "1 when this server serves as the primary of its pair (or has no server.standby); 0 while it stands by, while a"
                + " takeover waits for the name, and after a step-down");
        primary.add(now.primary() ? 1 : 0);
        final GaugeFamily protectedWrites = new GaugeFamily("latency_server_standby_protected", null,
            "1 when a standby holds every write this primary acknowledges; 0 when writes are on this server's disk only"
                + " (no standby, the standby still catching up, or its last acknowledgement missing), and while standing by");
        protectedWrites.add(now.protectedWrites() ? 1 : 0);
        final GaugeFamily members = new GaugeFamily("latency_server_standby_members", null,
            "members of the pair's view now: 2 a pair, 1 alone, 0 without server.standby");
        members.add(now.members());
        final GaugeFamily role = new GaugeFamily("latency_server_standby_role", null,
            "1 for this server's role in its pair now, 0 for the others: primary (serves), standing_by, taking_over (bound the"
                + " name, waits out 1.1 leases before serving), stepped_down (lease ran out or met another primary; joining"
                + " again as standby)", "role");
        for (final String each : StandbyCounters.ROLES) {
            role.add(each.equals(now.role()) ? 1 : 0, each);
        }
        final GaugeFamily lease = new GaugeFamily("latency_server_standby_lease_remaining_millis", null,
            "ms left of this primary's lease (server.standby.lease_millis after the newest check that found its name bound to"
                + " it); 0 when not serving or without a naming service");
        lease.add(now.leaseRemainingMillis());
        return MetricSnapshots.of(primary.build(), protectedWrites.build(), members.build(), role.build(), lease.build(),
            CounterFamily.single("latency_server_standby_lease_lapses_total",
                "times this primary's lease ran out (it could not confirm its name in the naming service in time)",
                now.leaseLapses()),
            CounterFamily.single("latency_server_standby_step_downs_total",
                "times this server stopped serving as primary: its lease ran out, or it met another primary after a cut",
                now.stepDowns()),
            CounterFamily.single("latency_server_standby_rejoins_total",
                "times this server joined the pair again as standby after a step-down, without a restart", now.rejoins()),
            CounterFamily.single("latency_server_standby_records_sent_total",
                "connection records the standby acknowledged while this server was primary", now.recordsSent()),
            CounterFamily.single("latency_server_standby_send_failures_total",
                "sends of records the standby did not acknowledge in server.standby.ack_timeout_millis (or it left)",
                now.sendsFailed()),
            CounterFamily.single("latency_server_standby_unprotected_writes_total",
                "writes answered while no standby held them (on this server's disk only)", now.unprotectedWrites()),
            CounterFamily.single("latency_server_standby_records_applied_total",
                "the primary's connection records applied while this server stood by", now.recordsApplied()),
            CounterFamily.single("latency_server_standby_takeovers_total",
                "times this server took over as primary when the other left the pair", now.takeovers()));
    }
}
