package org.latencyserver.systemtests.kit;

/**
 * A Latency Server started by {@link SystemUnderTest#server}, serving: its references and metrics URL
 * from its ready file ({@code references.server}, {@code urls.metrics}).
 *
 * <p>Thread-safety: as {@link ReadyProcess}.
 *
 * @param process the server's process and ready file
 */
public record ServerUnderTest(ReadyProcess process) implements AutoCloseable {

    /** @return the server's IOR */
    public String ior() {
        return process.ready().reference("server");
    }

    /** @return its Prometheus endpoint's URL (the server was started with a metrics port) */
    public String metricsUrl() {
        return process.ready().url("metrics");
    }

    /** @return its log so far */
    public String log() {
        return process.log();
    }

    /** @return whether it is running */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Kills it as {@code kill -9} would: no shutdown hooks, no last save. */
    public void kill() throws InterruptedException {
        process.kill();
    }

    /** Stops it: SIGTERM, then SIGKILL after 10 s. */
    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
