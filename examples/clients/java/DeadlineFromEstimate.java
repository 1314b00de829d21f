import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.latencyserver.client.Deadline;
import org.latencyserver.client.DeadlineMargin;
import org.latencyserver.client.RoundtripTimeouts;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import org.omg.CORBA.TIMEOUT;

/**
 * A deadline from a served estimate, put on a CORBA call.
 *
 * <pre>
 *   DeadlineFromEstimate SERVER INDEX_REF [--naming CORBALOC] [--peer REF] [--factor F] [--extra-ms MS]
 * </pre>
 *
 * SERVER is an IOR, a corbaloc:, a file holding one (as {@code ./latency server --ior-file} writes)
 * or, with {@code --naming}, a name in the naming service. The example reads the connection's
 * {@code current_estimate}, derives a deadline (the bound for QoS 2/4, the interval's upper end for
 * QoS 1/3, times F plus MS) and makes one call under it: an echo of 64 bytes to the peer given with
 * {@code --peer} (e.g. {@code peers/lab2}), or, without one, {@code RequestStatus} on the server
 * itself. Exit status 0: the call answered in time; 3: it overran its deadline (TIMEOUT); 1: an
 * error; 2: bad arguments.
 */
public final class DeadlineFromEstimate {

    /** Exit status of a call that ended with TIMEOUT. */
    public static final int OVERRAN = 3;

    private DeadlineFromEstimate() {
    }

    /** @param args see the class comment */
    public static void main(final String[] args) {
        final int status = run(args, System.out);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * @param args the command line
     * @param out  where to print
     * @return the exit status
     */
    public static int run(final String[] args, final PrintStream out) {
        String server = null;
        short indexRef = -1;
        String naming = null;
        String peer = null;
        double factor = 1.2;
        double extraMillis = 1.0;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--naming" -> naming = args[++i];
                    case "--peer" -> peer = args[++i];
                    case "--factor" -> factor = Double.parseDouble(args[++i]);
                    case "--extra-ms" -> extraMillis = Double.parseDouble(args[++i]);
                    default -> {
                        if (server == null) {
                            server = args[i];
                        } else {
                            indexRef = Short.parseShort(args[i]);
                        }
                    }
                }
            }
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            server = null;
        }
        if (server == null || indexRef < 0) {
            out.println("usage: DeadlineFromEstimate SERVER INDEX_REF [--naming CORBALOC] [--peer REF] [--factor F] [--extra-ms MS]");
            return 2;
        }

        // The ORB's own reply time-out (30 s) is the backstop; the deadline is shorter and cuts first.
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 30_000));
        try {
            // 1. The estimate of the connection the call will travel.
            final org.omg.CORBA.Object serverRef = References.resolve(orb, server, naming);
            final LatencyService service = LatencyServiceHelper.narrow(serverRef);
            final Estimate estimate = service.current_estimate(indexRef);

            // 2. A deadline from it: the bound (QoS 2/4) or the interval's upper end (QoS 1/3), with a margin.
            final DeadlineMargin margin = new DeadlineMargin(factor, Math.round(extraMillis * 1_000_000));
            final Deadline deadline = Deadline.ofEstimate(estimate, margin);
            out.printf(Locale.ROOT, "connection %d, QoS %d: served %s %.3f ms -> deadline %.3f ms (x %.2f + %.3f ms)%n",
                estimate.index_ref, estimate.quality, deadline.kind() == Deadline.Kind.BOUND ? "bound" : "interval upper end",
                deadline.servedMillis(), deadline.deadlineMillis(), factor, extraMillis);
            if (deadline.stale()) {
                out.println("  the estimate is stale (" + estimate.stale_reason + "): the deadline may not hold");
            }
            if (deadline.updatePending()) {
                out.println("  a measurement of the current load state is awaited");
            }

            // 3. One call under the deadline, through a reference with the policy.
            final long start = System.nanoTime();
            try {
                final String what;
                if (peer != null) {
                    final EchoPeer timedPeer = RoundtripTimeouts.withDeadline(orb, References.resolve(orb, peer, naming),
                        deadline, EchoPeerHelper::narrow);
                    timedPeer.echo(new byte[64]);
                    what = "echo of 64 bytes to the peer";
                } else {
                    final LatencyService timedServer = RoundtripTimeouts.withDeadline(orb, serverRef, deadline,
                        LatencyServiceHelper::unchecked_narrow);
                    final IdlStatusToClient status = timedServer.RequestStatus(indexRef);
                    what = "RequestStatus (latency_estimate " + status.latency_estimate + " ms)";
                }
                out.printf(Locale.ROOT, "in time: %s answered after %.3f ms%n", what, elapsedMillis(start));
                return 0;
            } catch (TIMEOUT e) {
                // The deadline passed without a reply. The request was sent, so the target may still
                // carry it out: retry only what may be done twice, or fall back (a cached value, a
                // degraded mode, another peer).
                out.printf(Locale.ROOT, "TIMEOUT: no reply within the deadline of %.3f ms (gave up after %.3f ms); "
                    + "the target may still carry the call out%n", deadline.deadlineMillis(), elapsedMillis(start));
                return OVERRAN;
            }
        } catch (org.latencyserver.idl.latency.UnknownConnection e) {
            out.println("no connection " + indexRef + ": " + e.reason);
        } catch (org.latencyserver.idl.latency.EstimateUnavailable e) {
            out.println("no estimate for connection " + indexRef + ": " + e.reason);
        } catch (References.ReferenceException | IllegalArgumentException e) {
            out.println(e.getMessage());
        } catch (SystemException e) {
            out.println("the call failed: " + References.describe(e));
        } finally {
            orb.shutdown(false);
        }
        return 1;
    }

    private static double elapsedMillis(final long startNanos) {
        return (System.nanoTime() - startNanos) / (double) TimeUnit.MILLISECONDS.toNanos(1);
    }
}
