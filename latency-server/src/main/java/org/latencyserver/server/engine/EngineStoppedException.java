package org.latencyserver.server.engine;

/**
 * The update thread is stopped (or stopped while the command waited, or the waiting thread was
 * interrupted): the command was not applied and never will be.
 */
public final class EngineStoppedException extends EngineCallException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what was not applied and why
     */
    EngineStoppedException(final String message) {
        super(message, null);
    }

    @Override
    public boolean mayHaveApplied() {
        return false;
    }
}
