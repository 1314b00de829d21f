package org.latencyserver.systemtests.testbed;

import java.nio.file.Files;
import java.nio.file.Path;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.orb.PlainOrbs;
import org.omg.CORBA.ORB;

/**
 * A CORBA client in its own JVM, for a server that runs in a testbed host's namespace (where the
 * test's own JVM cannot reach it): every 250 ms calls {@code RequestTableStatus} of one connection
 * and prints {@code row port_state=P cpu_state=C mib_port=M}, or {@code error ...} for a failed call.
 */
public final class TableStatusWatchMain {

    private static final long PERIOD_MILLIS = 250;

    private TableStatusWatchMain() {
    }

    /**
     * @param args the server's IOR file, the connection's index_ref
     * @throws Exception when the IOR file cannot be read (the test sees the process exit)
     */
    public static void main(final String[] args) throws Exception {
        final ORB orb = PlainOrbs.init();
        final Latserv latserv = LatservHelper.narrow(orb.string_to_object(Files.readString(Path.of(args[0])).trim()));
        final short connection = Short.parseShort(args[1]);
        while (true) {
            try {
                final TableRow row = latserv.RequestTableStatus(connection);
                System.out.println("row port_state=" + row.port_state + " cpu_state=" + row.cpu_state + " mib_port="
                    + row.latest_mib_port);
            } catch (RuntimeException e) {
                System.out.println("error " + e);
            }
            System.out.flush();
            Thread.sleep(PERIOD_MILLIS);
        }
    }
}
