package org.latencyserver.launch;

/**
 * A component did not become ready: it exited first, the time passed, or its ready file was
 * unusable. The message says which and quotes what the caller supplied about it (its log's end).
 */
public final class ReadinessException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what happened
     * @param cause   the underlying failure, or null
     */
    public ReadinessException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
