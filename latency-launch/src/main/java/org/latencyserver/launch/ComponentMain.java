package org.latencyserver.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * How a serving component's {@code main} runs it once its command line is parsed: begin the
 * {@link ServingLifecycle} (a stale ready file goes even when this run does not start), launch the
 * component, say for people that it serves, write the ready file for programs, wait for a stop, close
 * the component, and map a refusal to one line on standard error and an exit status.
 *
 * <pre>
 * return ComponentMain.serve(Component.MIRROR, readyFile, "latency mirror", () -&gt; {
 *     ComponentMain.validate(context::validate);           // a bad option: exit 2
 *     return Mirror.launch(context);
 * }, mirror -&gt; System.out.println("mirror: ..."));
 * </pre>
 *
 * <p>Exit statuses: {@link #serve} returns {@value #EXIT_STOPPED} after a clean stop, otherwise the
 * {@link Refusal}'s; each main documents which of its failures is {@value #EXIT_FAILED} and which
 * {@value #EXIT_USAGE} ({@code docs/operator-guide.md}). A process stopped by a signal exits as a JVM
 * does, whatever {@link #serve} returns: stopped by SIGTERM, it closes, deletes its ready file and
 * exits 143 (128 + 15); Ctrl-C (SIGINT) likewise exits 130. Any other exception goes to the caller
 * (picocli reports it).
 *
 * <p>Stateless; thread-safe.
 */
public final class ComponentMain {

    /**
     * What {@link #serve} returns after a clean stop. The process's exit status is this only when the
     * stop was asked for inside it ({@link ServingLifecycle#requestStop()}, a run's end); after SIGTERM
     * the JVM exits 143, after Ctrl-C 130.
     */
    public static final int EXIT_STOPPED = 0;
    /** Exit status of a component that cannot start (a port, a file). */
    public static final int EXIT_FAILED = 1;
    /** Exit status of a usage error (a bad option, or what a main documents as one). */
    public static final int EXIT_USAGE = 2;

    private ComponentMain() {
    }

    /**
     * Runs a component until it is asked to stop.
     *
     * @param component  which component this process runs
     * @param readyFile  its {@code --ready-file}, or null
     * @param name       how its error lines start, e.g. {@code latency mirror} (": " follows)
     * @param launch     validates and launches it
     * @param announce   says for people that it serves (and may still refuse, e.g. after a first contact)
     * @param <C>        the component's type
     * @return the exit status
     * @throws IOException          naming the ready file when it cannot be written
     * @throws InterruptedException when interrupted while it starts or serves
     */
    public static <C extends RunningComponent> int serve(final Component component, final Path readyFile, final String name,
                                                          final Launch<C> launch, final Announce<C> announce)
        throws IOException, InterruptedException {
        try (ServingLifecycle life = ServingLifecycle.begin(component, readyFile)) {
            final C running;
            try {
                running = launch.launch();
            } catch (Refusal e) {
                return e.report(name, System.err);
            }
            try (running) {
                try {
                    announce.announce(running);
                } catch (Refusal e) {
                    return e.report(name, System.err);
                }
                life.ready(running.readyFile());
                running.onReadyFileChange(() -> rewrite(life, running, name));
                life.awaitStop();
            }
        }
        return EXIT_STOPPED;
    }

    private static void rewrite(final ServingLifecycle life, final RunningComponent running, final String name) {
        try {
            life.readyAgain(running.readyFile());
        } catch (IOException | RuntimeException e) {
            System.err.println(name + ": " + e.getMessage());
        }
    }

    /**
     * Waits until the JVM shuts down (SIGTERM, Ctrl-C), closing the component in the shutdown hook
     * itself: for a component that writes and deletes its own ready file and whose close may take as
     * long as it needs (a server waits for the calls in progress), which {@link ServingLifecycle}
     * would cut short after {@value ServingLifecycle#CLEANUP_MILLIS} ms.
     *
     * @param running  the running component
     * @param hookName the shutdown hook thread's name
     * @throws InterruptedException when interrupted while waiting
     */
    public static void closeAtShutdown(final RunningComponent running, final String hookName) throws InterruptedException {
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            stopped.countDown();
        }, hookName));
        stopped.await();
    }

    /**
     * Checks a context, turning its refusal of a setting into a usage refusal.
     *
     * @param check the context's {@code validate}
     * @throws Refusal {@value #EXIT_USAGE} with the check's message when it throws {@link IllegalArgumentException}
     */
    public static void validate(final Runnable check) throws Refusal {
        try {
            check.run();
        } catch (IllegalArgumentException e) {
            throw Refusal.usage(e.getMessage());
        }
    }

    /**
     * Validates and launches a component.
     *
     * @param <C> the component's type
     */
    @FunctionalInterface
    public interface Launch<C extends RunningComponent> {
        /**
         * @return the running component
         * @throws Refusal when it cannot start, with the line to print and the exit status
         * @throws InterruptedException when interrupted while it starts
         */
        C launch() throws Refusal, InterruptedException;
    }

    /**
     * Says for people that a component serves, once it does.
     *
     * @param <C> the component's type
     */
    @FunctionalInterface
    public interface Announce<C extends RunningComponent> {
        /**
         * @param running the running component
         * @throws Refusal when it should not go on serving after all (it is closed then)
         * @throws InterruptedException when interrupted while it waits for something to announce
         */
        void announce(C running) throws Refusal, InterruptedException;
    }

    /**
     * A main's refusal to go on: the line it prints (after its name) and its exit status. Nothing
     * it launched is left running once the refusal reaches {@link #serve}.
     */
    public static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;

        private final int exitStatus;

        private Refusal(final int exitStatus, final String message) {
            super(message);
            this.exitStatus = exitStatus;
        }

        /**
         * @param message what is wrong, naming the option or the file
         * @return a refusal with exit status {@value ComponentMain#EXIT_USAGE}
         */
        public static Refusal usage(final String message) {
            return new Refusal(EXIT_USAGE, message);
        }

        /**
         * @param message why it cannot start, naming the port or the file
         * @return a refusal with exit status {@value ComponentMain#EXIT_FAILED}
         */
        public static Refusal failed(final String message) {
            return new Refusal(EXIT_FAILED, message);
        }

        /** @return the exit status */
        public int exitStatus() {
            return exitStatus;
        }

        private int report(final String name, final PrintStream err) {
            err.println(name + ": " + getMessage());
            return exitStatus;
        }
    }
}
