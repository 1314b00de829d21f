package org.latencyserver.mirror;

/**
 * One record of the estimate mirror file ({@code docs/mirror-layout.md}, "Record"), as a mutable
 * holder that is filled and reused: {@link EstimateMirrorWriter#write(MirrorRecord)} takes its
 * fields, {@link EstimateMirror#read(int, MirrorRecord)} overwrites them. Neither allocates.
 *
 * <p>Accessors follow the flyweight style: {@code qos()} reads, {@code qos(int)} sets and returns
 * this holder so that settings chain. Nothing is validated here; the writer validates on
 * {@code write}. Units: {@code valueMillis} in ms; the interval in ms for
 * {@link MirrorLayout#KIND_AVERAGE}, in percent for {@link MirrorLayout#KIND_BOUND}; times in
 * wall-clock ms since 1970.
 *
 * <p>Not thread-safe: each thread uses its own holder.
 */
public final class MirrorRecord {

    private int indexRef;
    private int qos;
    private int kind;
    private boolean hasEstimate;
    private boolean updatePending;
    private boolean stale;
    private boolean interpolated;
    private int staleReason;
    private int cpuState;
    private int portState;
    private double valueMillis;
    private double intervalLower;
    private double intervalUpper;
    private double boundPercent;
    private double confidenceLevel;
    private long computedEpochMillis;
    private long mirroredEpochMillis;
    private long sequence;

    /** An all-zero holder (as a never-written record). */
    public MirrorRecord() {
    }

    /**
     * Sets every field to zero and every flag to false.
     *
     * @return this holder
     */
    public MirrorRecord clear() {
        indexRef = 0;
        qos = 0;
        kind = 0;
        hasEstimate = false;
        updatePending = false;
        stale = false;
        interpolated = false;
        staleReason = 0;
        cpuState = 0;
        portState = 0;
        valueMillis = 0;
        intervalLower = 0;
        intervalUpper = 0;
        boundPercent = 0;
        confidenceLevel = 0;
        computedEpochMillis = 0;
        mirroredEpochMillis = 0;
        sequence = 0;
        return this;
    }

    /**
     * Copies every field of another holder into this one.
     *
     * @param other the holder to copy
     * @return this holder
     */
    public MirrorRecord copyFrom(final MirrorRecord other) {
        indexRef = other.indexRef;
        qos = other.qos;
        kind = other.kind;
        hasEstimate = other.hasEstimate;
        updatePending = other.updatePending;
        stale = other.stale;
        interpolated = other.interpolated;
        staleReason = other.staleReason;
        cpuState = other.cpuState;
        portState = other.portState;
        valueMillis = other.valueMillis;
        intervalLower = other.intervalLower;
        intervalUpper = other.intervalUpper;
        boundPercent = other.boundPercent;
        confidenceLevel = other.confidenceLevel;
        computedEpochMillis = other.computedEpochMillis;
        mirroredEpochMillis = other.mirroredEpochMillis;
        sequence = other.sequence;
        return this;
    }

    /**
     * @return the connection, 0…32767 (equal to the record's slot)
     */
    public int indexRef() {
        return indexRef;
    }

    /**
     * @param indexRef the connection, 0…32767
     * @return this holder
     */
    public MirrorRecord indexRef(final int indexRef) {
        this.indexRef = indexRef;
        return this;
    }

    /**
     * @return the QoS level, 1–4 as {@code Latserv}
     */
    public int qos() {
        return qos;
    }

    /**
     * @param qos the QoS level, 1–4
     * @return this holder
     */
    public MirrorRecord qos(final int qos) {
        this.qos = qos;
        return this;
    }

    /**
     * @return {@link MirrorLayout#KIND_AVERAGE} or {@link MirrorLayout#KIND_BOUND}
     */
    public int kind() {
        return kind;
    }

    /**
     * @param kind {@link MirrorLayout#KIND_AVERAGE} or {@link MirrorLayout#KIND_BOUND}
     * @return this holder
     */
    public MirrorRecord kind(final int kind) {
        this.kind = kind;
        return this;
    }

    /**
     * @return whether the server serves an estimate (flag bit 0); if not, only the state fields mean anything
     */
    public boolean hasEstimate() {
        return hasEstimate;
    }

    /**
     * @param hasEstimate flag bit 0
     * @return this holder
     */
    public MirrorRecord hasEstimate(final boolean hasEstimate) {
        this.hasEstimate = hasEstimate;
        return this;
    }

    /**
     * @return whether a measurement of the current state is awaited (flag bit 1, QoS 3/4)
     */
    public boolean updatePending() {
        return updatePending;
    }

    /**
     * @param updatePending flag bit 1
     * @return this holder
     */
    public MirrorRecord updatePending(final boolean updatePending) {
        this.updatePending = updatePending;
        return this;
    }

    /**
     * @return whether the values are stale (flag bit 2); {@link #staleReason()} says why
     */
    public boolean stale() {
        return stale;
    }

    /**
     * @param stale flag bit 2
     * @return this holder
     */
    public MirrorRecord stale(final boolean stale) {
        this.stale = stale;
        return this;
    }

    /**
     * @return whether the estimate comes from the latency-vs-size model (flag bit 3)
     */
    public boolean interpolated() {
        return interpolated;
    }

    /**
     * @param interpolated flag bit 3
     * @return this holder
     */
    public MirrorRecord interpolated(final boolean interpolated) {
        this.interpolated = interpolated;
        return this;
    }

    /**
     * @return one of the {@code MirrorLayout.STALE_REASON_*} codes, 0–3
     */
    public int staleReason() {
        return staleReason;
    }

    /**
     * @param staleReason one of the {@code MirrorLayout.STALE_REASON_*} codes, 0–3
     * @return this holder
     */
    public MirrorRecord staleReason(final int staleReason) {
        this.staleReason = staleReason;
        return this;
    }

    /**
     * @return {@code 10 × client + peer} (1 LOW, 2 MEDIUM, 3 HIGH), 0 unknown
     */
    public int cpuState() {
        return cpuState;
    }

    /**
     * @param cpuState {@code 10 × client + peer} with each 1–3, or 0 unknown
     * @return this holder
     */
    public MirrorRecord cpuState(final int cpuState) {
        this.cpuState = cpuState;
        return this;
    }

    /**
     * @return 0 NORMAL, 91–100 LOADED at that percent, 101 SATURATED, −1 unknown
     */
    public int portState() {
        return portState;
    }

    /**
     * @param portState 0 NORMAL, 91–100 LOADED at that percent, 101 SATURATED, −1 unknown
     * @return this holder
     */
    public MirrorRecord portState(final int portState) {
        this.portState = portState;
        return this;
    }

    /**
     * @return the served value in ms (a mean, or the bound at {@link #boundPercent()})
     */
    public double valueMillis() {
        return valueMillis;
    }

    /**
     * @param valueMillis the served value in ms
     * @return this holder
     */
    public MirrorRecord valueMillis(final double valueMillis) {
        this.valueMillis = valueMillis;
        return this;
    }

    /**
     * @return the interval's lower end: ms for AVERAGE, percent for BOUND
     */
    public double intervalLower() {
        return intervalLower;
    }

    /**
     * @param intervalLower ms for AVERAGE, percent for BOUND
     * @return this holder
     */
    public MirrorRecord intervalLower(final double intervalLower) {
        this.intervalLower = intervalLower;
        return this;
    }

    /**
     * @return the interval's upper end: ms for AVERAGE, percent for BOUND
     */
    public double intervalUpper() {
        return intervalUpper;
    }

    /**
     * @param intervalUpper ms for AVERAGE, percent for BOUND
     * @return this holder
     */
    public MirrorRecord intervalUpper(final double intervalUpper) {
        this.intervalUpper = intervalUpper;
        return this;
    }

    /**
     * @return the bound's percentage (QoS 2, 4), 0 for AVERAGE
     */
    public double boundPercent() {
        return boundPercent;
    }

    /**
     * @param boundPercent the bound's percentage, 0 for AVERAGE
     * @return this holder
     */
    public MirrorRecord boundPercent(final double boundPercent) {
        this.boundPercent = boundPercent;
        return this;
    }

    /**
     * @return the interval's confidence level, e.g. 0.95
     */
    public double confidenceLevel() {
        return confidenceLevel;
    }

    /**
     * @param confidenceLevel the interval's confidence level, e.g. 0.95
     * @return this holder
     */
    public MirrorRecord confidenceLevel(final double confidenceLevel) {
        this.confidenceLevel = confidenceLevel;
        return this;
    }

    /**
     * @return when the server computed the estimate, ms since 1970 on the server's clock
     */
    public long computedEpochMillis() {
        return computedEpochMillis;
    }

    /**
     * @param computedEpochMillis ms since 1970 on the server's clock
     * @return this holder
     */
    public MirrorRecord computedEpochMillis(final long computedEpochMillis) {
        this.computedEpochMillis = computedEpochMillis;
        return this;
    }

    /**
     * @return when the mirror wrote the record, ms since 1970 on this host's clock
     */
    public long mirroredEpochMillis() {
        return mirroredEpochMillis;
    }

    /**
     * @param mirroredEpochMillis ms since 1970 on this host's clock
     * @return this holder
     */
    public MirrorRecord mirroredEpochMillis(final long mirroredEpochMillis) {
        this.mirroredEpochMillis = mirroredEpochMillis;
        return this;
    }

    /**
     * The record's seqlock sequence as last read: even and &gt; 0 for an accepted copy, and never
     * smaller for the same record of the same file. Ignored by {@link EstimateMirrorWriter#write}.
     *
     * @return the sequence
     */
    public long sequence() {
        return sequence;
    }

    /**
     * @param sequence the sequence (set by the reader)
     * @return this holder
     */
    public MirrorRecord sequence(final long sequence) {
        this.sequence = sequence;
        return this;
    }

    /**
     * Whether every field but {@link #sequence()} equals the other holder's (doubles compared
     * bit for bit as {@link Double#compare} does).
     *
     * @param other the holder to compare
     * @return true if the mirrored values are the same
     */
    public boolean sameValues(final MirrorRecord other) {
        return indexRef == other.indexRef && qos == other.qos && kind == other.kind
            && hasEstimate == other.hasEstimate && updatePending == other.updatePending && stale == other.stale
            && interpolated == other.interpolated && staleReason == other.staleReason && cpuState == other.cpuState
            && portState == other.portState && Double.compare(valueMillis, other.valueMillis) == 0
            && Double.compare(intervalLower, other.intervalLower) == 0
            && Double.compare(intervalUpper, other.intervalUpper) == 0
            && Double.compare(boundPercent, other.boundPercent) == 0
            && Double.compare(confidenceLevel, other.confidenceLevel) == 0
            && computedEpochMillis == other.computedEpochMillis && mirroredEpochMillis == other.mirroredEpochMillis;
    }

    @Override
    public String toString() {
        return "MirrorRecord{indexRef=" + indexRef + ", qos=" + qos
            + ", kind=" + (kind == MirrorLayout.KIND_AVERAGE ? "AVERAGE" : kind == MirrorLayout.KIND_BOUND ? "BOUND" : kind)
            + ", hasEstimate=" + hasEstimate + ", updatePending=" + updatePending + ", stale=" + stale
            + ", interpolated=" + interpolated + ", staleReason=" + staleReason + ", cpuState=" + cpuState
            + ", portState=" + portState + ", valueMillis=" + valueMillis + ", interval=[" + intervalLower + ", "
            + intervalUpper + "], boundPercent=" + boundPercent + ", confidenceLevel=" + confidenceLevel
            + ", computedEpochMillis=" + computedEpochMillis + ", mirroredEpochMillis=" + mirroredEpochMillis
            + ", sequence=" + sequence + '}';
    }
}
