package org.latencyserver.benchmarks.accuracy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * What ran beside a measured run: every {@value #PERIOD_MILLIS} ms one line of
 * {@link QuietMachine#besideNow()} (load, other testbeds, the machine's CPU, the busiest processes),
 * appended to a file, until stopped. One daemon thread; {@link #stop()} from any thread.
 */
public final class BesideSampler {

    static final long PERIOD_MILLIS = 30_000;

    private final Thread thread;

    private BesideSampler(final Thread thread) {
        this.thread = thread;
    }

    /**
     * @param machine what to read
     * @param file    where the lines go
     * @return the running sampler
     */
    public static BesideSampler start(final QuietMachine machine, final Path file) {
        final Thread thread = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Files.writeString(file, Instant.now() + " " + machine.besideNow() + System.lineSeparator(),
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    Thread.sleep(PERIOD_MILLIS);
                } catch (InterruptedException e) {
                    return;
                } catch (IOException | RuntimeException e) {
                    try {
                        Files.writeString(file, Instant.now() + " (could not read the machine: " + e + ")" + System.lineSeparator(),
                            StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                        Thread.sleep(PERIOD_MILLIS);
                    } catch (IOException | InterruptedException again) {
                        return;
                    }
                }
            }
        }, "beside-sampler");
        thread.setDaemon(true);
        thread.start();
        return new BesideSampler(thread);
    }

    /** Stops it; safe to call twice. */
    public void stop() {
        thread.interrupt();
    }
}
