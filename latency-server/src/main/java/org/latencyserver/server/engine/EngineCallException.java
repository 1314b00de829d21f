package org.latencyserver.server.engine;

/**
 * A command sent to the update thread through the {@link EngineProxy} has no outcome to report;
 * the subclass says why and whether the command may have changed the table.
 */
public abstract sealed class EngineCallException extends Exception
    permits EngineTimeoutException, EngineStoppedException, EngineCommandFailedException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message the whole story, fit to show a caller
     * @param cause   the underlying failure, or null
     */
    EngineCallException(final String message, final Throwable cause) {
        super(message, cause);
    }

    /**
     * @return false when the command certainly did not change the table and never will (a caller
     *         may send it again); true when it ran, so part of it may have been applied
     */
    public abstract boolean mayHaveApplied();
}
