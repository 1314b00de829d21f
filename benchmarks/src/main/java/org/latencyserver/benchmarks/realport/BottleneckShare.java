package org.latencyserver.benchmarks.realport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What share of the bottleneck's rate the port carried in a {@link RunRecord}, from the qdisc's counters: over any
 * windows ({@link #share}), and in the idle steps while the agents measured and while they only probed
 * ({@link #agentsShare}). Pure arithmetic on the record: no clock, no I/O.
 *
 * <p>Stateless; thread-safe.
 */
public final class BottleneckShare {

    private BottleneckShare() {
    }

    /**
     * The port's share of its rate over the times given, from the qdisc's counters.
     *
     * @param seconds       the time covered by counter readings inside the windows
     * @param share         bytes sent over that time as a share of the rate (0..1; NaN with no time)
     * @param maxSecondShare the highest share over any stretch of at least one second inside one window
     * @param bytesPerFrame  the mean frame the port sent over that time, bytes (NaN: none)
     */
    public record Share(double seconds, double share, double maxSecondShare, double bytesPerFrame) {
    }

    /**
     * @param record  the run
     * @param windows time windows [from, to), epoch ms, not overlapping
     * @return the share of the rate the port carried over them
     */
    public static Share share(final RunRecord record, final List<long[]> windows) {
        final double bytesPerMilli = record.rateMbit() * 1e6 / 8 / 1000;
        double bytes = 0;
        double packets = 0;
        double millis = 0;
        double maxSecond = Double.NaN;
        final List<RunRecord.PortCounter> counters = record.counters().stream()
            .sorted(Comparator.comparingLong(RunRecord.PortCounter::epochMillis)).toList();
        for (final long[] w : windows) {
            final List<RunRecord.PortCounter> in = counters.stream().filter(c -> c.epochMillis() >= w[0] && c.epochMillis() <= w[1]).toList();
            if (in.size() < 2) {
                continue;
            }
            bytes += in.get(in.size() - 1).bytes() - in.get(0).bytes();
            packets += in.get(in.size() - 1).packets() - in.get(0).packets();
            millis += in.get(in.size() - 1).epochMillis() - in.get(0).epochMillis();
            for (int i = 0; i < in.size(); i++) {
                for (int j = i + 1; j < in.size(); j++) {
                    final long span = in.get(j).epochMillis() - in.get(i).epochMillis();
                    if (span >= 1000) {
                        final double s = (in.get(j).bytes() - in.get(i).bytes()) / (span * bytesPerMilli);
                        maxSecond = Double.isNaN(maxSecond) ? s : Math.max(maxSecond, s);
                        break;
                    }
                }
            }
        }
        return new Share(millis / 1000, millis > 0 ? bytes / (millis * bytesPerMilli) : Double.NaN, maxSecond,
            packets > 0 ? bytes / packets : Double.NaN);
    }

    /**
     * The agents' share in the idle steps (no iperf3 load): while a QoS 3/4 measurement was open or running, and
     * while only the probes ran.
     *
     * @param idleSteps        idle steps after a load (the first idle, before any change, is left out: it holds the
     *                         agent's start-up warm-up)
     * @param all              the port over the whole of those steps, from {@code settleAfterStopMillis} after the load
     *                         stopped: every measurement, warm-up and probe
     * @param measuring        the port while a measurement was open (request issued until its result arrived or it
     *                         was gone), counted from {@code settleAfterStopMillis} after the load stopped
     * @param probing          the rest of those idle steps: probes, and a run the agent finishes for a request the server
     *                         already replaced
     * @param paces            the paces the measurement requests carried, per message size: bytes per round trip and
     *                         direction as a share of the rate at that pace
     */
    public record AgentsShare(int idleSteps, Share all, Share measuring, Share probing, Map<Integer, Double> paces) {
    }

    /** Counted from this long after an iperf3 load stopped, ms: the tbf's queue (≤ 25 ms) has long drained. */
    public static final long SETTLE_AFTER_STOP_MILLIS = 500;

    /** Headers the server counts per message when it paces (see the operator guide). */
    static final int HEADER_BYTES = 100;

    /** @return the agents' share of the bottleneck in the idle steps */
    public static AgentsShare agentsShare(final RunRecord record) {
        final List<long[]> idle = new ArrayList<>();
        for (int i = 0; i < record.changes().size(); i++) {
            final RunRecord.Change c = record.changes().get(i);
            if (c.toPercent() == 0) {
                final long to = i + 1 < record.changes().size() ? record.changes().get(i + 1).epochMillis() : record.endEpochMillis();
                idle.add(new long[] {c.epochMillis() + SETTLE_AFTER_STOP_MILLIS, to});
            }
        }
        final List<RealPortAnalysis.Result> results = RealPortAnalysis.results(record);
        final List<long[]> open = new ArrayList<>();
        for (final RunRecord.Request r : record.requests()) {
            final long end = results.stream().filter(x -> x.indexRef() == r.indexRef() && x.acceptedMillis() >= r.issuedEpochMillis()
                    && x.acceptedMillis() <= r.lastSeenMillis() + 2 * record.samplePeriodMillis())
                .mapToLong(RealPortAnalysis.Result::acceptedMillis).min().orElse(r.lastSeenMillis());
            open.add(new long[] {r.issuedEpochMillis(), end});
        }
        final List<long[]> measuring = new ArrayList<>();
        final List<long[]> probing = new ArrayList<>();
        for (final long[] step : idle) {
            final List<long[]> inside = union(open.stream().map(w -> new long[] {Math.max(w[0], step[0]), Math.min(w[1], step[1])})
                .filter(w -> w[1] > w[0]).toList());
            measuring.addAll(inside);
            long at = step[0];
            for (final long[] w : inside) {
                if (w[0] > at) {
                    probing.add(new long[] {at, w[0]});
                }
                at = Math.max(at, w[1]);
            }
            if (step[1] > at) {
                probing.add(new long[] {at, step[1]});
            }
        }
        final Map<Integer, Double> paces = new TreeMap<>();
        for (final RunRecord.Request r : record.requests()) {
            if (r.minIntervalNanos() > 0) {
                paces.put(r.messageSizeBytes(), (r.messageSizeBytes() + HEADER_BYTES) * 8.0 / (r.minIntervalNanos() / 1e9)
                    / (record.rateMbit() * 1e6));
            }
        }
        return new AgentsShare(idle.size(), share(record, idle), share(record, measuring), share(record, probing), paces);
    }

    /** @return the windows merged where they overlap, in order */
    static List<long[]> union(final List<long[]> windows) {
        final List<long[]> sorted = windows.stream().sorted(Comparator.comparingLong(w -> w[0])).toList();
        final List<long[]> merged = new ArrayList<>();
        for (final long[] w : sorted) {
            if (!merged.isEmpty() && w[0] <= merged.get(merged.size() - 1)[1]) {
                merged.get(merged.size() - 1)[1] = Math.max(merged.get(merged.size() - 1)[1], w[1]);
            } else {
                merged.add(new long[] {w[0], w[1]});
            }
        }
        return merged;
    }
}
