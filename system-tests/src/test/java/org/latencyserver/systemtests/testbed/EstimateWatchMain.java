package org.latencyserver.systemtests.testbed;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.orb.PlainOrbs;
import org.omg.CORBA.ORB;

/**
 * A CORBA client in its own JVM, for a server that runs in a testbed host's namespace: every 250 ms
 * calls {@code current_estimate} of one connection and prints
 * {@code estimate port_state=P value_ms=V basis=B}, {@code unavailable port_state=? reason=R} for a
 * refusal, or {@code error ...} for a failed call.
 */
public final class EstimateWatchMain {

    private static final long PERIOD_MILLIS = 250;

    private EstimateWatchMain() {
    }

    /**
     * @param args the server's IOR file, the connection's index_ref
     * @throws Exception when the IOR file cannot be read (the test sees the process exit)
     */
    public static void main(final String[] args) throws Exception {
        final ORB orb = PlainOrbs.init();
        final LatencyService service = LatencyServiceHelper.narrow(orb.string_to_object(Files.readString(Path.of(args[0])).trim()));
        final short connection = Short.parseShort(args[1]);
        while (true) {
            try {
                final Estimate estimate = service.current_estimate(connection);
                System.out.printf(Locale.ROOT, "estimate port_state=%d value_ms=%.4f basis=%s%n", estimate.port_state,
                    estimate.value_ms, estimate.basis.replace('\n', ' '));
            } catch (EstimateUnavailable e) {
                System.out.println("unavailable port_state=" + service.RequestTableStatus(connection).port_state + " reason="
                    + e.reason.replace('\n', ' '));
            } catch (RuntimeException e) {
                System.out.println("error " + e);
            }
            System.out.flush();
            Thread.sleep(PERIOD_MILLIS);
        }
    }
}
