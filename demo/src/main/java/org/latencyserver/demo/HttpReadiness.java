package org.latencyserver.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a program that is not a component (it writes no ready file) to say over HTTP that it
 * serves: a readiness endpoint answering {@code 200}, such as Prometheus's {@code GET /-/ready}.
 * Its output is never read.
 *
 * <p>Stateless; thread-safe.
 */
final class HttpReadiness {

    /** Between two requests. */
    private static final long POLL_MILLIS = 100;
    /** One request may take this long (a program starting up may accept and answer late). */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

    private HttpReadiness() {
    }

    /**
     * @param endpoint      the readiness endpoint
     * @param timeout       how long to wait
     * @param stillStarting false once the program has exited (then waiting is pointless)
     * @param whenFailed    what to say about the program when it exits or the time passes (e.g. its log's end)
     * @throws DemoException when it exits first or is not ready in time: what it last answered, and {@code whenFailed}
     * @throws InterruptedException when interrupted
     */
    static void await(final URI endpoint, final Duration timeout, final BooleanSupplier stillStarting,
                      final Supplier<String> whenFailed) throws InterruptedException {
        final HttpClient client = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
        final HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(REQUEST_TIMEOUT).GET().build();
        final long deadlineNanos = System.nanoTime() + timeout.toNanos();
        String lastAnswer = "no answer yet";
        while (true) {
            try {
                final HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
                lastAnswer = "it answered " + response.statusCode();
            } catch (IOException e) {
                lastAnswer = "no answer: " + e;
            }
            if (!stillStarting.getAsBoolean()) {
                throw new DemoException(endpoint + ": it exited before it was ready (" + lastAnswer + ")\n" + whenFailed.get());
            }
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new DemoException(endpoint + ": not ready within " + timeout.toSeconds() + " s (" + lastAnswer + ")\n"
                    + whenFailed.get());
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}
