package org.latencyserver.agent.client;

import org.latencyserver.agent.probe.ProbeServer;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.idl.latency.ResultRefused;
import org.latencyserver.idl.latency.UnknownConnection;

/**
 * The prober's view of the Latency Server: the agent's {@link ServerConnection}, shared with the
 * measurements, so that a reference one of them found failing is looked up again by both.
 *
 * <p>Thread-safe, as {@link ServerConnection}.
 */
final class ServerProbeLink implements ProbeServer {

    private final ServerConnection server;

    /** @param server the agent's connection to the server */
    ServerProbeLink(final ServerConnection server) {
        this.server = server;
    }

    @Override
    public ConnectionInfo[] listConnections() {
        return server.get().list_connections();
    }

    @Override
    public void submitProbe(final ProbeReport report) throws UnknownConnection, ResultRefused {
        try {
            server.get().submit_probe(report);
        } catch (org.latencyserver.idl.latency.OperationDisabled e) {
            // Not this agent's connection by its certificate: to the prober a refusal like any other.
            throw new ResultRefused(report.index_ref, 0, e.reason);
        }
    }

    @Override
    public void forgetReference() {
        server.invalidate();
    }
}
