package org.latencyserver.console;

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
