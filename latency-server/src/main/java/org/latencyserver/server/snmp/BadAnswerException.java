package org.latencyserver.server.snmp;

/**
 * An SNMP answer that gives no usable value: an error status, noSuchObject/noSuchInstance, a
 * value of the wrong type. The message names the OID and what was wrong; the poll counts as a miss.
 *
 * <p>Immutable and thread-safe.
 */
public final class BadAnswerException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what was wrong, naming the OID
     */
    public BadAnswerException(final String message) {
        super(message);
    }
}
