package org.latencyserver.server.corba;

import java.util.Locale;

/**
 * Why a call was refused, as a bounded label for the {@code latency_server_refusals_total}
 * counter (the full reason goes to the caller and the log).
 */
public enum Refusal {
    /** The caller lacks the role, or writes for another agent's connection. */
    NOT_PERMITTED,
    /** The call is switched off in the configuration. */
    DISABLED,
    /** No such connection. */
    UNKNOWN_CONNECTION,
    /** A value out of range, missing or inconsistent. */
    BAD_VALUE,
    /** Forged, replayed, late or missing ticket; no open request. */
    BAD_TICKET,
    /** A result outside the plausible range or far from the connection's history. */
    IMPLAUSIBLE,
    /** Over a size limit (histogram bins, profile bytes). */
    TOO_LARGE,
    /** The connection's load comes from SNMP, so an operator's reading would be overwritten and is refused. */
    POLLED_SOURCE,
    /** A profile that fails the checks start-up runs. */
    BAD_PROFILE;

    /** @return the metric label, e.g. {@code not_permitted} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
