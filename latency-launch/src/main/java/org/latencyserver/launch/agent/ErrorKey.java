package org.latencyserver.launch.agent;

/**
 * What makes two errors the same in a {@link DistinctErrorLog}: the exception's class, its message
 * and its top stack frame (where it was thrown).
 *
 * @param className the exception's class name
 * @param message   its message; empty when it has none
 * @param topFrame  its top stack frame as {@link StackTraceElement#toString()}; empty when it has no stack trace
 */
public record ErrorKey(String className, String message, String topFrame) {

    /**
     * @param error an exception
     * @return its key
     */
    public static ErrorKey of(final Throwable error) {
        final StackTraceElement[] stack = error.getStackTrace();
        return new ErrorKey(error.getClass().getName(),
                error.getMessage() == null ? "" : error.getMessage(),
                stack.length == 0 ? "" : stack[0].toString());
    }

    /** @return this key with the message left out (one key for every message of this class thrown here) */
    public ErrorKey withoutMessage() {
        return new ErrorKey(className, "(any message: too many distinct errors to keep each)", topFrame);
    }

    @Override
    public String toString() {
        return className + (message.isEmpty() ? "" : ": " + message) + (topFrame.isEmpty() ? "" : " at " + topFrame);
    }
}
