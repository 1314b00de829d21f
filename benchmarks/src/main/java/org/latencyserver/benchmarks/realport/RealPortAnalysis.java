package org.latencyserver.benchmarks.realport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.latencyserver.orb.EstimateSource;

/**
 * The figures of a {@link RunRecord}: how long a real port change took to show in the port state and in
 * QoS 1's estimate; which accepted QoS 3/4 results stayed filed and whether any of them spans a real load
 * change; the drops at each load. What share of the bottleneck's rate the agents took is {@link BottleneckShare}'s.
 * Pure arithmetic on the record: no clock, no I/O.
 *
 * <p>Stateless; thread-safe.
 */
public final class RealPortAnalysis {

    /** The harness's kinds of change, in cycle order. */
    public enum Kind {
        IDLE_TO_LOADED("idle → 95 %"), LOADED_TO_OVERLOAD("95 % → overload"), OVERLOAD_TO_IDLE("overload → idle"), OTHER("other");

        private final String label;

        Kind(final String label) {
            this.label = label;
        }

        /** @return how the report names it */
        public String label() {
            return label;
        }

        static Kind of(final RunRecord.Change change) {
            final int from = family(change.fromPercent());
            final int to = family(change.toPercent());
            if (from == 0 && to == 1) {
                return IDLE_TO_LOADED;
            }
            if (from == 1 && to == 2) {
                return LOADED_TO_OVERLOAD;
            }
            return from == 2 && to == 0 ? OVERLOAD_TO_IDLE : OTHER;
        }
    }

    /** A load's family: 0 idle, 1 loaded below the rate, 2 beyond the rate. */
    static int family(final int percent) {
        return percent <= 0 ? 0 : percent <= 100 ? 1 : 2;
    }

    /**
     * @param percent the offered load, percent of the port's rate
     * @param portState a port state code (0 NORMAL, 91..100 LOADED, 101 SATURATED)
     * @return whether the code is the state that load should show: NORMAL idle, a LOADED band (or SATURATED, when the
     *         agents' traffic on top of it made the port drop) at or below the rate, SATURATED beyond it
     */
    public static boolean shows(final int percent, final int portState) {
        return switch (family(percent)) {
            case 0 -> portState == 0;
            // at 95 % offered the agents' own traffic can take the port past its rate: it drops, and SATURATED is right
            case 1 -> portState >= 91 && portState <= 101;
            default -> portState == 101;
        };
    }

    /**
     * One change, timed.
     *
     * @param change         the change
     * @param kind           its kind
     * @param toStateMillis  from the change to the first read of the new state in the table (null: not within the step)
     * @param toEstimateMillis from the change to the first QoS 1 estimate served in the new state (null: none within the step)
     * @param valueChanged   whether that estimate's value differed from the one served before the change (a loaded band and
     *                       SATURATED may serve the same model value)
     * @param alreadyShown   whether the last read before the change already showed the new load's state (then there is
     *                       nothing to time: e.g. 95 % plus the agents' traffic already SATURATED before the overload)
     * @param firstState     the port state of the first read that showed the new load (-2: none)
     */
    public record Timed(RunRecord.Change change, Kind kind, Long toStateMillis, Long toEstimateMillis, boolean valueChanged,
                        boolean alreadyShown, int firstState) {
    }

    /**
     * @param record       the run
     * @param indexRef     the connection whose port state and estimate are timed (QoS 1)
     * @return each change timed
     */
    public static List<Timed> timeChanges(final RunRecord record, final int indexRef) {
        final List<RunRecord.Sample> of = record.samples().stream().filter(s -> s.indexRef() == indexRef)
            .sorted(Comparator.comparingLong(RunRecord.Sample::epochMillis)).toList();
        final List<Timed> timed = new ArrayList<>();
        for (int i = 0; i < record.changes().size(); i++) {
            final RunRecord.Change change = record.changes().get(i);
            final long until = i + 1 < record.changes().size() ? record.changes().get(i + 1).epochMillis() : record.endEpochMillis();
            RunRecord.Sample before = null;
            Long toState = null;
            Long toEstimate = null;
            boolean valueChanged = false;
            for (final RunRecord.Sample s : of) {
                if (s.epochMillis() < change.epochMillis()) {
                    before = s;
                    continue;
                }
                if (s.epochMillis() >= until) {
                    break;
                }
                final long after = s.epochMillis() - change.epochMillis();
                if (toState == null && shows(change.toPercent(), s.portState())) {
                    toState = after;
                }
                if (toEstimate == null && s.served() && shows(change.toPercent(), s.estimatePortState())) {
                    toEstimate = after;
                    valueChanged = before == null || !before.served() || s.valueMillis() != before.valueMillis();
                }
            }
            final boolean already = before != null && shows(change.toPercent(), before.portState());
            int first = -2;
            for (final RunRecord.Sample s : of) {
                if (s.epochMillis() >= change.epochMillis() && s.epochMillis() < until && shows(change.toPercent(), s.portState())) {
                    first = s.portState();
                    break;
                }
            }
            timed.add(new Timed(change, Kind.of(change), toState, toEstimate, valueChanged, already, first));
        }
        return timed;
    }

    /**
     * Per kind of change: how many, how many reached the new state and the new estimate, their p50 and max.
     *
     * @param kind           the kind
     * @param changes        how many changes of it
     * @param alreadyShown   how many found the new state already shown (left out of the timings)
     * @param stateReached   how many showed the new port state within their step
     * @param stateP50Millis p50 (nearest rank) of the time to it, ms (NaN: none)
     * @param stateMaxMillis the max
     * @param estimateReached how many had QoS 1's estimate for the new state within their step
     * @param estimateP50Millis p50 of the time to it, ms
     * @param estimateMaxMillis the max
     * @param valueUnchanged  of those, how many kept the value served before (same model value in both states)
     * @param firstStates     how often each port state was the first to show the new load
     */
    public record KindSummary(Kind kind, int changes, int alreadyShown, int stateReached, double stateP50Millis, double stateMaxMillis,
                              int estimateReached, double estimateP50Millis, double estimateMaxMillis, int valueUnchanged,
                              Map<Integer, Integer> firstStates) {

        /** @return the changes that were timed: those whose new state was not already shown */
        public int timed() {
            return changes - alreadyShown;
        }
    }

    /** @return a summary per kind that occurred, in {@link Kind} order */
    public static List<KindSummary> summarise(final List<Timed> timed) {
        final List<KindSummary> out = new ArrayList<>();
        for (final Kind kind : Kind.values()) {
            final List<Timed> all = timed.stream().filter(t -> t.kind() == kind).toList();
            if (all.isEmpty()) {
                continue;
            }
            final List<Timed> of = all.stream().filter(t -> !t.alreadyShown()).toList();
            final List<Long> state = of.stream().map(Timed::toStateMillis).filter(v -> v != null).toList();
            final List<Long> estimate = of.stream().map(Timed::toEstimateMillis).filter(v -> v != null).toList();
            final Map<Integer, Integer> firsts = new TreeMap<>();
            of.stream().filter(t -> t.firstState() != -2).forEach(t -> firsts.merge(t.firstState(), 1, Integer::sum));
            out.add(new KindSummary(kind, all.size(), all.size() - of.size(), state.size(), percentile(state, 50), max(state),
                estimate.size(), percentile(estimate, 50), max(estimate),
                (int) of.stream().filter(t -> t.toEstimateMillis() != null && !t.valueChanged()).count(), firsts));
        }
        return out;
    }

    /**
     * @param values  any
     * @param percent 0 < percent ≤ 100
     * @return the nearest-rank percentile (the smallest value with at least that share at or below it); NaN when empty
     */
    public static double percentile(final List<Long> values, final double percent) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        final List<Long> sorted = values.stream().sorted().toList();
        final int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size(), rank) - 1));
    }

    private static double max(final List<Long> values) {
        return values.stream().mapToLong(Long::longValue).max().stream().mapToDouble(v -> v).findFirst().orElse(Double.NaN);
    }

    /**
     * An accepted QoS 3/4 result and what became of it.
     *
     * @param indexRef        the connection
     * @param acceptedMillis  when the server accepted it (its last-measured time; the estimate's data time)
     * @param cpuState        the load state it was filed under: CPU pair
     * @param portState       and port state (-2 when it was only ever seen served, never read filed)
     * @param takenBackMillis when the state it was filed under reverted to an older result (null: never)
     * @param requestIssuedMillis when the request it answered was issued (null: no request seen)
     * @param timeBudgetMillis the request's time budget (the recorded run is at most this long)
     */
    public record Result(int indexRef, long acceptedMillis, int cpuState, int portState, Long takenBackMillis, Long requestIssuedMillis,
                         long timeBudgetMillis) {

        /** @return whether it stayed filed */
        public boolean stillFiled() {
            return takenBackMillis == null && portState != -2;
        }

        /** @return the earliest its recorded round trips can have begun: the request's issue, or the budget before it arrived */
        public long runStartBound(final long marginMillis) {
            final long byBudget = timeBudgetMillis > 0 ? acceptedMillis - timeBudgetMillis - marginMillis : Long.MIN_VALUE;
            return requestIssuedMillis == null ? byBudget : Math.max(requestIssuedMillis, byBudget);
        }
    }

    /**
     * Every accepted result: each distinct last-measured time a measured connection's load state showed, and each
     * measured estimate's data time; taken back when the state it was filed under later showed an older time (or none).
     *
     * @param record the run
     * @return the results, by acceptance time
     */
    public static List<Result> results(final RunRecord record) {
        final Map<String, List<RunRecord.Filed>> byState = new LinkedHashMap<>();
        record.filed().stream().sorted(Comparator.comparingLong(RunRecord.Filed::epochMillis))
            .forEach(f -> byState.computeIfAbsent(f.indexRef() + "/" + f.cpuState() + "/" + f.portState(), k -> new ArrayList<>()).add(f));
        final Map<String, Result> results = new TreeMap<>();
        for (final List<RunRecord.Filed> history : byState.values()) {
            for (int i = 0; i < history.size(); i++) {
                final RunRecord.Filed f = history.get(i);
                final long accepted = f.lastMeasuredEpochMillis();
                if (accepted <= 0 || accepted < record.startEpochMillis()) {
                    continue; // nothing filed, or filed before the run began
                }
                final String key = f.indexRef() + "/" + accepted;
                if (results.containsKey(key)) {
                    continue;
                }
                Long takenBack = null;
                for (int j = i + 1; j < history.size(); j++) {
                    if (history.get(j).lastMeasuredEpochMillis() < accepted) {
                        takenBack = history.get(j).epochMillis();
                        break;
                    }
                    if (history.get(j).lastMeasuredEpochMillis() > accepted) {
                        break;
                    }
                }
                final Optional<RunRecord.Request> request = requestOf(record, f.indexRef(), accepted);
                results.put(key, new Result(f.indexRef(), accepted, f.cpuState(), f.portState(), takenBack,
                    request.map(RunRecord.Request::issuedEpochMillis).orElse(null), request.map(RunRecord.Request::timeBudgetMillis).orElse(0L)));
            }
        }
        for (final RunRecord.Sample s : record.samples()) {
            if (s.served() && EstimateSource.fromWord(s.source()).orElse(null) == EstimateSource.MEASUREMENT
                && s.dataEpochMillis() >= record.startEpochMillis()) {
                final String key = s.indexRef() + "/" + s.dataEpochMillis();
                if (!results.containsKey(key)) {
                    final Optional<RunRecord.Request> request = requestOf(record, s.indexRef(), s.dataEpochMillis());
                    results.put(key, new Result(s.indexRef(), s.dataEpochMillis(), -2, -2, null,
                        request.map(RunRecord.Request::issuedEpochMillis).orElse(null),
                        request.map(RunRecord.Request::timeBudgetMillis).orElse(0L)));
                }
            }
        }
        return results.values().stream().sorted(Comparator.comparingLong(Result::acceptedMillis)).toList();
    }

    /** @return the last request of the connection issued at or before the acceptance */
    static Optional<RunRecord.Request> requestOf(final RunRecord record, final int indexRef, final long acceptedMillis) {
        return record.requests().stream().filter(r -> r.indexRef() == indexRef && r.issuedEpochMillis() <= acceptedMillis)
            .max(Comparator.comparingLong(RunRecord.Request::issuedEpochMillis));
    }

    /** @return the real changes strictly inside (from, to) */
    static List<RunRecord.Change> changesWithin(final RunRecord record, final long from, final long to) {
        return record.changes().stream().filter(c -> c.epochMillis() > from && c.epochMillis() < to).toList();
    }

    /** @return the load in force at that moment, percent (0 before the first change) */
    public static int loadAt(final RunRecord record, final long epochMillis) {
        int load = 0;
        for (final RunRecord.Change c : record.changes()) {
            if (c.epochMillis() <= epochMillis) {
                load = c.toPercent();
            }
        }
        return load;
    }

    /**
     * What was filed, checked against the harness's own timeline.
     *
     * @param accepted              results accepted during the run
     * @param stillFiled            of them, never taken back
     * @param takenBack             taken back (the filed state reverted), as the calibration reads showed
     * @param servedNeverFiled      seen served as a measurement but never read filed (taken back within one read period)
     * @param metricTakenBack       the server's {@code latency_server_measurements_taken_back_total} over the run (NaN: unread)
     * @param spanningWide          still-filed results with a real change between their request's issue and their arrival
     * @param spanningRun           still-filed results with a real change inside the longest their recorded run can have
     *                              lasted (from the later of issue and arrival − time budget − margin, to arrival)
     * @param filedUnderOtherState  still-filed results with no change in their run whose port state is not what the real
     *                              load shows (NORMAL idle, LOADED at 95 %, SATURATED in overload)
     * @param takenBackSpanning     of the taken-back ones, how many did span a real change in their run
     * @param offenders             the still-filed results that span a change or sit under another state
     */
    public record FiledCheck(int accepted, int stillFiled, int takenBack, int servedNeverFiled, double metricTakenBack, int spanningWide,
                             int spanningRun, int filedUnderOtherState, int takenBackSpanning, List<Result> offenders) {
    }

    /** Margin for a result's transit from agent to server when bounding its run by its time budget, ms. */
    public static final long RUN_MARGIN_MILLIS = 500;

    /** @return the check of every result against the timeline */
    public static FiledCheck checkFiled(final RunRecord record) {
        final List<Result> results = results(record);
        int still = 0;
        int back = 0;
        int never = 0;
        int wide = 0;
        int run = 0;
        int other = 0;
        int backSpanning = 0;
        final List<Result> offenders = new ArrayList<>();
        for (final Result r : results) {
            final boolean spansRun = !changesWithin(record, r.runStartBound(RUN_MARGIN_MILLIS), r.acceptedMillis()).isEmpty();
            if (r.portState() == -2) {
                never++;
                continue;
            }
            if (r.takenBackMillis() != null) {
                back++;
                backSpanning += spansRun ? 1 : 0;
                continue;
            }
            still++;
            final long wideStart = r.requestIssuedMillis() != null ? r.requestIssuedMillis() : r.runStartBound(RUN_MARGIN_MILLIS);
            final boolean spansWide = !changesWithin(record, wideStart, r.acceptedMillis()).isEmpty();
            wide += spansWide ? 1 : 0;
            run += spansRun ? 1 : 0;
            final boolean otherState = !spansRun && !shows(loadAt(record, r.acceptedMillis()), r.portState());
            other += otherState ? 1 : 0;
            if (spansRun || otherState) {
                offenders.add(r);
            }
        }
        final OptionalDouble first = record.metrics().stream().mapToDouble(RunRecord.Metrics::takenBack).filter(v -> !Double.isNaN(v))
            .findFirst();
        final double last = record.metrics().stream().mapToDouble(RunRecord.Metrics::takenBack).filter(v -> !Double.isNaN(v))
            .reduce((a, b) -> b).orElse(Double.NaN);
        return new FiledCheck(results.size(), still, back, never, first.isPresent() ? last - first.getAsDouble() : Double.NaN, wide, run,
            other, backSpanning, offenders);
    }

    /**
     * @param record the run
     * @param percent a load, percent
     * @return over the steps at that load: packets the tbf dropped, packets it sent, and the share of QoS 1's reads
     *         that showed SATURATED
     */
    public static double[] dropsAt(final RunRecord record, final int percent) {
        double dropped = 0;
        double sent = 0;
        long reads = 0;
        long saturated = 0;
        for (int i = 0; i < record.changes().size(); i++) {
            final RunRecord.Change c = record.changes().get(i);
            if (c.toPercent() != percent) {
                continue;
            }
            final long to = i + 1 < record.changes().size() ? record.changes().get(i + 1).epochMillis() : record.endEpochMillis();
            final List<RunRecord.PortCounter> in = record.counters().stream()
                .filter(x -> x.epochMillis() >= c.epochMillis() && x.epochMillis() <= to).toList();
            if (in.size() >= 2) {
                dropped += in.get(in.size() - 1).drops() - in.get(0).drops();
                sent += in.get(in.size() - 1).packets() - in.get(0).packets();
            }
            for (final RunRecord.Sample s : record.samples()) {
                if (s.indexRef() == 1 && s.epochMillis() >= c.epochMillis() && s.epochMillis() < to) {
                    reads++;
                    saturated += s.portState() == 101 ? 1 : 0;
                }
            }
        }
        return new double[] {dropped, sent, reads > 0 ? (double) saturated / reads : Double.NaN};
    }

    /** @return the link's counter refresh period the server learned (median of its readings during the run), s; NaN when unread */
    public static double refreshSeconds(final RunRecord record, final String source) {
        final List<Long> millis = record.metrics().stream().map(m -> m.refreshSeconds().get(source)).filter(v -> v != null)
            .map(v -> Math.round(v * 1000)).toList();
        return percentile(millis, 50) / 1000;
    }

    private RealPortAnalysis() {
    }
}
