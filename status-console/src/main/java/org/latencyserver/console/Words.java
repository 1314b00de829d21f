package org.latencyserver.console;

import org.latencyserver.orb.EstimateSource;

/**
 * The IDL's codes in words, as an operator reads them (encodings documented in {@code Latserv.idl}).
 * The hysteresis note uses the thesis's bands (LOW ≤ 33 < MEDIUM ≤ 66 < HIGH; port LOADED above
 * 90 %), the server's defaults.
 */
final class Words {

    private static final String[] CPU = {"UNKNOWN", "LOW", "MEDIUM", "HIGH"};

    private Words() {
    }

    static String cpuState(final int code) {
        if (code <= 0) {
            return "UNKNOWN";
        }
        return cpu(code / 10) + "/" + cpu(code % 10);
    }

    private static String cpu(final int code) {
        return code >= 0 && code < CPU.length ? CPU[code] : "?" + code;
    }

    static String portState(final int code) {
        if (code < 0) {
            return "UNKNOWN";
        }
        if (code == 101) {
            return "SATURATED";
        }
        return code == 0 ? "NORMAL" : "LOADED " + code + " %";
    }

    static String qos(final int qos, final double boundPercent) {
        return switch (qos) {
            case 1 -> "QoS 1: average from the profile";
            case 2 -> "QoS 2: " + percent(boundPercent) + " bound from the profile";
            case 3 -> "QoS 3: measured average";
            case 4 -> "QoS 4: measured " + percent(boundPercent) + " bound";
            default -> "QoS " + qos;
        };
    }

    static String percent(final double value) {
        return (value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value)) + " %";
    }

    /**
     * What the operator is told about where a served value's data come from, when they are not
     * the current load state's own: the server's {@code Estimate.source} in words.
     *
     * @param source          the server's source word
     * @param dataEpochMillis when the data were measured; 0 for a profile
     * @param nowMillis       the console's clock
     * @return e.g. "remembered, 3 min old", "profile fallback", "previous state's value"; empty for
     *         a measurement or a profile of the current state (the ordinary case needs no label)
     */
    static String source(final String source, final long dataEpochMillis, final long nowMillis) {
        return EstimateSource.fromWord(source == null ? "" : source).map(known -> switch (known) {
            case NONE, MEASUREMENT, PROFILE -> "";
            case REMEMBERED -> dataEpochMillis > 0
                ? "remembered, " + age(Math.max(0, nowMillis - dataEpochMillis)) + " old" : "remembered";
            case PROFILE_FALLBACK -> "profile fallback";
            case BAND_PROBES -> "probes of this port state";
            case PREVIOUS_STATE -> "previous state's value";
        }).orElse(source);
    }

    /**
     * @param source the server's source word
     * @return whether the value's data do not belong to the connection's current load state (a profile
     *         fallback, the previous state's measurement): the console marks such a value
     */
    static boolean sourceElsewhere(final String source) {
        return EstimateSource.fromWord(source == null ? "" : source)
            .map(known -> known != EstimateSource.NONE && !known.ofCurrentState()).orElse(false);
    }

    /**
     * @param source the server's source word
     * @return what {@link #source(String, long, long)}'s label means, for a tooltip; empty when there is no label
     */
    static String sourceExplanation(final String source) {
        return EstimateSource.fromWord(source == null ? "" : source).map(known -> switch (known) {
            case NONE, MEASUREMENT, PROFILE -> "";
            case REMEMBERED -> "the last measurement of this load state, from when the connection was last in it;"
                + " served at once on the return, until a new measurement of the state arrives";
            case PROFILE_FALLBACK -> "never measured in this load state: the profile's cell for it is served until"
                + " the state's first measurement arrives";
            case BAND_PROBES -> "on a loaded port: the recent probes and measurements of this path in this port state"
                + " (CPU states pooled), served instead of a profile's cell, or until a measurement of the state arrives";
            case PREVIOUS_STATE -> "thesis semantics: the value measured in the previous load state is"
                + " still served; it does not belong to the current state, whose measurement is awaited";
        }).orElse("the server's source of this value");
    }

    /**
     * @param ageMillis an age, ms
     * @return it in the coarsest unit that still reads well: "42 s", "3 min", "5 h", "2 d"
     */
    static String age(final long ageMillis) {
        final long seconds = ageMillis / 1000;
        if (seconds < 120) {
            return seconds + " s";
        }
        if (seconds < 120 * 60) {
            return seconds / 60 + " min";
        }
        if (seconds < 48 * 3600) {
            return seconds / 3600 + " h";
        }
        return seconds / 86_400 + " d";
    }

    /**
     * @return a note for each value whose band differs from the state shown (held there by the
     *         server's hysteresis), or an empty string
     */
    static String hysteresis(final int cpuStateCode, final int clientCpu, final int peerCpu, final int portStateCode,
                             final int portPercent) {
        final StringBuilder note = new StringBuilder();
        if (cpuStateCode > 0) {
            held(note, "client CPU", clientCpu, cpuStateCode / 10);
            held(note, "peer CPU", peerCpu, cpuStateCode % 10);
        }
        if (portPercent >= 0 && portStateCode >= 0 && (portStateCode == 0) != (portPercent <= 90)) {
            append(note, "port " + portPercent + " % held " + portState(portStateCode));
        }
        return note.toString();
    }

    private static void held(final StringBuilder note, final String what, final int percent, final int stateCode) {
        if (percent < 0) {
            return;
        }
        final int band = percent <= 33 ? 1 : percent <= 66 ? 2 : 3;
        if (band != stateCode) {
            append(note, what + " " + percent + " % held " + cpu(stateCode));
        }
    }

    private static void append(final StringBuilder note, final String text) {
        if (note.length() > 0) {
            note.append("; ");
        }
        note.append(text).append(" by hysteresis");
    }
}
