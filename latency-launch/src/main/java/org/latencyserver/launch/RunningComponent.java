package org.latencyserver.launch;

/**
 * A component launched in this JVM (by its {@code launch(context)}, in a test as in its main): what
 * it reports in its {@link ReadyFile} and an idempotent {@link #close()} that stops what the launch
 * started. A subclass says how to stop ({@link #stop()}); this class makes sure that happens once,
 * and, through {@link #startedOrClosed}, that a launch that fails half-way leaves nothing running.
 *
 * <p>Thread-safe: {@link #close()} may be called from any thread, any number of times; it holds
 * this object's monitor while it stops, so a subclass's {@code synchronized} accessors never see a
 * half-stopped component.
 */
public abstract class RunningComponent implements AutoCloseable {

    /** Guarded by this. */
    private boolean closed;

    /**
     * @return its ready file's content, as {@code docs/ready-files.md} lists it for this component
     */
    public abstract ReadyFile.Builder readyFile();

    /**
     * Asks to be told when the ready file's content changes while the component serves (e.g. a renewed
     * certificate's expiry); the caller then writes it again. By default the content never changes.
     *
     * @param changed run, on the component's thread that saw the change, after each change
     */
    public void onReadyFileChange(final Runnable changed) {
        // The content is fixed once serving.
    }

    /**
     * Stops what the launch started, in reverse order of start. Called once, by the first
     * {@link #close()}, holding this object's monitor; also after a launch that failed half-way, so
     * it must cope with parts that never started.
     */
    protected abstract void stop();

    /** Stops the component ({@link #stop()}); a second call does nothing. */
    @Override
    public final synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stop();
    }

    /** @return whether {@link #close()} has been called */
    public final synchronized boolean isClosed() {
        return closed;
    }

    /**
     * The last step of a launch: starts a constructed component, or, when starting fails, closes
     * what had started and rethrows.
     *
     * @param component the constructed, not yet started component
     * @param start     how to start it
     * @param <C>       the component's type
     * @param <E>       what starting may throw besides unchecked exceptions
     * @return the started component
     * @throws E when starting fails (the component is closed then)
     */
    protected static <C extends RunningComponent, E extends Exception> C startedOrClosed(final C component,
                                                                                     final Start<C, E> start) throws E {
        try {
            start.start(component);
        } catch (Exception e) {
            component.close();
            throw e;
        }
        return component;
    }

    /**
     * How a component starts.
     *
     * @param <C> the component's type
     * @param <E> what starting may throw besides unchecked exceptions
     */
    @FunctionalInterface
    protected interface Start<C, E extends Exception> {
        /**
         * @param component the component to start
         * @throws E when it cannot start
         */
        void start(C component) throws E;
    }
}
