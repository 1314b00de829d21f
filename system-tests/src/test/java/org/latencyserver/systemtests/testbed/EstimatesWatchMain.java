package org.latencyserver.systemtests.testbed;

import java.util.StringJoiner;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.PathHop;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.orb.References;
import org.omg.CORBA.ORB;

/**
 * A CORBA client in its own JVM, for a server in a testbed host's namespace (where the test's JVM
 * cannot reach it): every 250 ms reads every connection's port state ({@code list_connections}) and
 * current estimate, and prints one line per connection, read as any client reads it (plain IIOP):
 * <pre>
 * t=EPOCH_MS conn=N qos=Q port_state=P served quality=Q source=S value_ms=V basis=B
 * t=EPOCH_MS conn=N qos=Q port_state=P refused reason=R
 * </pre>
 * (a served line's port state is the estimate's own, the state it was served for; a refused line's is
 * {@code list_connections}'s), then one line with its path's switch ports as {@code ConnectionInfo} gives them (hops in path order, each
 * {@code LINK:PORT_STATE:PORT_PERCENT}; none for a connection without a link) and whether it is stale:
 * <pre>
 * t=EPOCH_MS conn=N path port_state=P hops=LINK:S:U,LINK:S:U stale=true|false stale_reason=R
 * </pre>
 * or {@code t=EPOCH_MS error ...} for a call that failed.
 */
public final class EstimatesWatchMain {

    private static final long PERIOD_MILLIS = 250;

    private EstimatesWatchMain() {
    }

    /**
     * @param args the server: a name in the naming service, a corbaloc, an IOR or an IOR file; then the naming
     *             service's corbaloc when the server is given by name
     */
    public static void main(final String[] args) throws Exception {
        final ORB orb = PlainOrbs.init();
        final LatencyService service = LatencyServiceHelper.narrow(References.resolve(orb, args[0], args.length > 1 ? args[1] : null));
        while (true) {
            final long now = System.currentTimeMillis();
            try {
                for (final ConnectionInfo info : service.list_connections()) {
                    final String head = "t=" + now + " conn=" + info.index_ref + " qos=" + info.quality + " port_state=";
                    try {
                        final Estimate estimate = service.current_estimate(info.index_ref);
                        // The estimate's own port state: the connection's may have changed since list_connections.
                        System.out.println(head + estimate.port_state + " served quality=" + estimate.quality + " source=" + estimate.source.replace(' ', '_')
                            + " value_ms=" + estimate.value_ms + " basis=" + estimate.basis.replace('\n', ' '));
                    } catch (EstimateUnavailable e) {
                        System.out.println(head + info.port_state + " refused reason=" + e.reason.replace('\n', ' '));
                    }
                    System.out.println(pathLine(now, info));
                }
            } catch (RuntimeException e) {
                System.out.println("t=" + now + " error " + e);
            }
            System.out.flush();
            Thread.sleep(PERIOD_MILLIS);
        }
    }

    private static String pathLine(final long now, final ConnectionInfo info) {
        final StringJoiner hops = new StringJoiner(",");
        for (final PathHop hop : info.hops) {
            hops.add(hop.link_name + ":" + hop.port_state + ":" + hop.port_percent);
        }
        return "t=" + now + " conn=" + info.index_ref + " path port_state=" + info.port_state + " hops=" + hops + " stale=" + info.stale
            + " stale_reason=" + info.stale_reason.replace('\n', ' ');
    }
}
