package org.latencyserver.server.engine;

/**
 * A command ran on the update thread and threw. The loop logged and counted it
 * ({@code latency_server_update_errors_total}); rows it published before it threw stay published
 * (most commands publish one row, at their end), so it may have been partly applied.
 */
public final class EngineCommandFailedException extends EngineCallException {

    private static final long serialVersionUID = 1L;

    /**
     * @param command what the command was
     * @param cause   what it threw
     */
    EngineCommandFailedException(final String command, final RuntimeException cause) {
        super(command + " failed on the update thread: " + cause, cause);
    }

    @Override
    public boolean mayHaveApplied() {
        return true;
    }
}
