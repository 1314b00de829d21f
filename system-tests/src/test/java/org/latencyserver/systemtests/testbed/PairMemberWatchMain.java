package org.latencyserver.systemtests.testbed;

import java.nio.file.Files;
import java.nio.file.Path;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.orb.References;
import org.latencyserver.testkit.MetricsText;
import org.omg.CORBA.ORB;

/**
 * A client beside one server of a standby pair, in that server's network namespace (so a cut of the
 * server's network does not cut it off from its server): a thread reads the server's role from its
 * metrics ({@code latency_server_standby_role}) every 50 ms; another sends one write every 100 ms
 * straight to the server's reference (as a client that still holds an old primary's reference
 * would) and reads the unprotected-writes counter again. Lines:
 * <pre>
 * t=EPOCH_MS role=ROLE
 * t=EPOCH_MS seq=N conn=C val=V result=ack|unprotected|refused end=EPOCH_MS
 * </pre>
 * {@code unprotected}: acknowledged while the counter grew (the standby did not hold it). Write N goes
 * to connection {@code first + N % count} with the client CPU value {@code 1 + (N / count) % 99}.
 * Once the stop file exists it resolves the server's name and prints every connection of its range
 * as the primary serves it: {@code final conn=C val=V}, then {@code done}.
 */
public final class PairMemberWatchMain {

    private static final long PERIOD_MILLIS = 100;
    private static final long ROLE_PERIOD_MILLIS = 50;

    private PairMemberWatchMain() {
    }

    /**
     * @param args the server's IOR file, its metrics URL, the first connection, how many connections, the stop file,
     *             the server's name, the naming service's corbaloc
     */
    public static void main(final String[] args) throws Exception {
        final ORB orb = PlainOrbs.withoutRetries();
        final Latserv server = LatservHelper.unchecked_narrow(orb.string_to_object(Files.readString(Path.of(args[0])).trim()));
        final String metrics = args[1];
        final int first = Integer.parseInt(args[2]);
        final int count = Integer.parseInt(args[3]);
        final Path stop = Path.of(args[4]);
        final Thread roles = new Thread(() -> {
            while (Files.notExists(stop)) {
                final long at = System.currentTimeMillis();
                final String role = role(metrics);
                System.out.println("t=" + at + " role=" + role);
                try {
                    Thread.sleep(Math.max(1, ROLE_PERIOD_MILLIS - (System.currentTimeMillis() - at)));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "roles");
        roles.setDaemon(true);
        roles.start();
        long seq = 0;
        while (Files.notExists(stop)) {
            final long start = System.currentTimeMillis();
            final double unprotectedBefore = unprotected(metrics);
            final short conn = (short) (first + seq % count);
            final short value = (short) (1 + (seq / count) % 99);
            String result;
            try {
                server.PutMibUpdates(new IdlMibUpdates(conn, value, (short) 50, (short) 10), conn);
                result = unprotected(metrics) > unprotectedBefore ? "unprotected" : "ack";
            } catch (org.omg.CORBA.SystemException e) {
                result = "refused";
            }
            System.out.println("t=" + start + " seq=" + seq + " conn=" + conn + " val=" + value + " result=" + result + " end="
                + System.currentTimeMillis());
            seq++;
            Thread.sleep(Math.max(1, PERIOD_MILLIS - (System.currentTimeMillis() - start)));
        }
        final long deadline = System.currentTimeMillis() + 60_000;
        while (true) {
            try {
                final Latserv primary = LatservHelper.narrow(References.resolve(orb, args[5], args[6]));
                final StringBuilder lines = new StringBuilder();
                for (int c = first; c < first + count; c++) {
                    lines.append("final conn=").append(c).append(" val=").append(primary.RequestTableStatus((short) c)
                        .latest_client_mib_cpu).append('\n');
                }
                System.out.print(lines);
                break;
            } catch (org.omg.CORBA.SystemException | References.ReferenceException e) {
                if (System.currentTimeMillis() > deadline) {
                    System.out.println("final error " + e);
                    break;
                }
                Thread.sleep(200);
            }
        }
        System.out.println("done");
        orb.shutdown(true);
    }

    private static String role(final String metrics) {
        try {
            final MetricsText page = MetricsText.scrape(metrics);
            for (final String role : java.util.List.of("primary", "standing_by", "taking_over", "stepped_down")) {
                if (page.get("latency_server_standby_role", "role", role) == 1) {
                    return role;
                }
            }
            return "none";
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static double unprotected(final String metrics) {
        try {
            return MetricsText.scrape(metrics).get("latency_server_standby_unprotected_writes_total");
        } catch (Exception e) {
            return Double.NaN;
        }
    }
}
