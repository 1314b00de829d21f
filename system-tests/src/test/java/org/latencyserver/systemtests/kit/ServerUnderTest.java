package org.latencyserver.systemtests.kit;

import org.latencyserver.launch.ChildProcess;

/**
 * A Latency Server started by {@link SystemUnderTest#server}, serving: its references and metrics URL
 * from its ready file ({@code references.server}, {@code urls.metrics}).
 *
 * <p>Thread-safety: as {@link ReadyProcess}.
 *
 * @param process the server's process and ready file
 */
public record ServerUnderTest(ReadyProcess process) implements RunningProcess {

    /** @return the server's IOR */
    public String ior() {
        return process.ready().reference("server");
    }

    /** @return its Prometheus endpoint's URL (the server was started with a metrics port) */
    public String metricsUrl() {
        return process.ready().url("metrics");
    }

    /** @return the server's process */
    @Override
    public ChildProcess child() {
        return process.child();
    }
}
