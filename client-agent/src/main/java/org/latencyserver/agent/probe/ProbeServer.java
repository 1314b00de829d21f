package org.latencyserver.agent.probe;

import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.idl.latency.ResultRefused;
import org.latencyserver.idl.latency.UnknownConnection;

/**
 * What the prober needs of the Latency Server: the connection list, and where its reports go. The
 * agent's implementation calls the server over CORBA; a test captures the reports.
 *
 * <p>Implementations must be callable from the prober thread while other threads use the same
 * server. A server that cannot be reached is a {@link RuntimeException} (a CORBA system exception,
 * or a reference that cannot be resolved).
 */
public interface ProbeServer {

    /**
     * @return the server's connections ({@code list_connections()})
     * @throws RuntimeException when the server cannot be reached
     */
    ConnectionInfo[] listConnections();

    /**
     * Submits one report window ({@code submit_probe}).
     *
     * @param report the window
     * @throws UnknownConnection when the server has no such connection
     * @throws ResultRefused     when the server will not take the report (e.g. not this agent's node)
     * @throws RuntimeException  when the server cannot be reached
     */
    void submitProbe(ProbeReport report) throws UnknownConnection, ResultRefused;

    /** Drops the current reference after a failed call, so that a restarted server is found again. */
    void forgetReference();
}
