package org.latencyserver.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@link Command} to its end and returns its standard output; a failure (exit status not 0,
 * a program that cannot start, one that runs past the time-out) becomes a
 * {@link CommandFailedException} quoting its standard error.
 *
 * <p>Stateless; thread-safe.
 */
public final class CommandRunner {

    /** How long one command may take: {@code ip} and {@code tc} finish in milliseconds. */
    private static final long TIMEOUT_SECONDS = 30;

    /**
     * @param command what to run
     * @return its standard output
     * @throws CommandFailedException naming the command, its exit status and standard error
     * @throws InterruptedException  when interrupted while waiting (the command is killed)
     */
    public String run(final Command command) throws CommandFailedException, InterruptedException {
        final Process process;
        try {
            process = new ProcessBuilder(command.argv()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        } catch (IOException e) {
            throw new CommandFailedException(command, -1, e.getMessage());
        }
        final CompletableFuture<String> out = drain(process.getInputStream());
        final CompletableFuture<String> err = drain(process.getErrorStream());
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new CommandFailedException(command, -1, "still running after " + TIMEOUT_SECONDS + " s (killed)");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            throw e;
        }
        final String stdout = joined(out);
        final String stderr = joined(err);
        if (process.exitValue() != 0) {
            throw new CommandFailedException(command, process.exitValue(), stderr);
        }
        return stdout;
    }

    private static CompletableFuture<String> drain(final InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (stream) {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(cannot read: " + e.getMessage() + ")";
            }
        });
    }

    private static String joined(final CompletableFuture<String> text) throws InterruptedException {
        try {
            return text.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return "(output not read: " + e + ")";
        }
    }
}
