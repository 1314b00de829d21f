package org.latencyserver.server.engine;

/**
 * The update thread did not take a command within its time-out, and the command was cancelled:
 * it was not applied and never will be.
 */
public final class EngineTimeoutException extends EngineCallException {

    private static final long serialVersionUID = 1L;

    /**
     * @param command       what the command was
     * @param timeoutMillis how long its caller waited
     */
    EngineTimeoutException(final String command, final long timeoutMillis) {
        super(command + " was not applied: the update thread did not take it within " + timeoutMillis
            + " ms, so it was cancelled (it will not be applied later)", null);
    }

    @Override
    public boolean mayHaveApplied() {
        return false;
    }
}
