package org.latencyserver.mirror;

import static org.latencyserver.mirror.MirrorLayout.*;

/**
 * What a reader checks in every record it copies before it calls the copy {@link ReadStatus#OK}
 * ({@code docs/mirror-layout.md}, "What a reader checks"): a mapped file is input from another
 * process, which may be broken or hostile.
 *
 * <ul>
 * <li>{@code index_ref} equals the slot; {@code qos} 1–4; {@code kind} 0 or 1; {@code stale_reason}
 *     0–3; {@code cpu_state} 0 or {@code 10 × client + peer} with each 1–3; {@code port_state} −1,
 *     0, 91–100 or 101 (the codes {@link EstimateMirrorWriter#write} accepts);</li>
 * <li>{@code value_ms}, {@code interval_lower}, {@code interval_upper}, {@code bound_percent} and
 *     {@code confidence_level} finite; {@code bound_percent} 0–100; {@code confidence_level} 0–1;</li>
 * <li>with {@code HAS_ESTIMATE}: {@code interval_lower ≤ interval_upper}; for BOUND
 *     {@code bound_percent} in (0, 100]; for AVERAGE {@code interval_lower ≤ value_ms ≤
 *     interval_upper} (the mean lies in its confidence interval).</li>
 * </ul>
 *
 * <p>Stateless; thread-safe. {@link #problem} allocates only for a bad record.
 */
public final class RecordCheck {

    private RecordCheck() {
    }

    /**
     * @param record a copy read from the file
     * @param slot   the slot it was read from (its {@code index_ref} must equal it)
     * @return null if the record keeps the layout's contract, else which field breaks it, its value
     *     and the rule
     */
    public static String problem(final MirrorRecord record, final int slot) {
        final String codes = codeProblem(record, slot);
        if (codes != null) {
            return codes;
        }
        final String numbers = numberProblem(record);
        return numbers == null ? null : "record in slot " + slot + ": " + numbers;
    }

    private static String codeProblem(final MirrorRecord record, final int slot) {
        if (record.indexRef() != slot) {
            return "record in slot " + slot + ": index_ref " + record.indexRef() + " is not the slot";
        }
        final int qos = record.qos();
        final int kind = record.kind();
        final int staleReason = record.staleReason();
        final int cpuState = record.cpuState();
        final int portState = record.portState();
        if (qos < 1 || qos > 4) {
            return bad(slot, "qos", qos, "1–4");
        }
        if (kind != KIND_AVERAGE && kind != KIND_BOUND) {
            return bad(slot, "kind", kind, "0 (AVERAGE) or 1 (BOUND)");
        }
        if (staleReason < STALE_REASON_NONE || staleReason > STALE_REASON_NO_ESTIMATE) {
            return bad(slot, "stale_reason", staleReason, "0–3");
        }
        if (cpuState != CPU_STATE_UNKNOWN
            && (cpuState / 10 < 1 || cpuState / 10 > 3 || cpuState % 10 < 1 || cpuState % 10 > 3)) {
            return bad(slot, "cpu_state", cpuState, "0 or 10 × client + peer with each 1–3");
        }
        if (portState != PORT_STATE_UNKNOWN && portState != PORT_STATE_NORMAL && (portState < 91 || portState > 101)) {
            return bad(slot, "port_state", portState, "−1, 0, 91–100 or 101");
        }
        return null;
    }

    private static String bad(final int slot, final String field, final int value, final String legal) {
        return "record in slot " + slot + ": " + field + " " + value + " is not " + legal;
    }

    private static String numberProblem(final MirrorRecord record) {
        final double value = record.valueMillis();
        final double lower = record.intervalLower();
        final double upper = record.intervalUpper();
        final double bound = record.boundPercent();
        final double confidence = record.confidenceLevel();
        if (!Double.isFinite(value) || !Double.isFinite(lower) || !Double.isFinite(upper) || !Double.isFinite(bound)
            || !Double.isFinite(confidence)) {
            return "a value is not finite: value_ms " + value + ", interval [" + lower + ", " + upper + "], bound_percent "
                + bound + ", confidence_level " + confidence;
        }
        if (bound < 0 || bound > 100) {
            return "bound_percent " + bound + " is not 0–100";
        }
        if (confidence < 0 || confidence > 1) {
            return "confidence_level " + confidence + " is not 0–1";
        }
        if (!record.hasEstimate()) {
            return null;
        }
        if (lower > upper) {
            return "interval [" + lower + ", " + upper + "] has its lower end above its upper end";
        }
        if (record.kind() == KIND_BOUND && bound <= 0) {
            return "bound_percent " + bound + " of a BOUND is not in (0, 100]";
        }
        if (record.kind() == KIND_AVERAGE && (value < lower || value > upper)) {
            return "value_ms " + value + " of an AVERAGE is outside its interval [" + lower + ", " + upper + "]";
        }
        return null;
    }
}
