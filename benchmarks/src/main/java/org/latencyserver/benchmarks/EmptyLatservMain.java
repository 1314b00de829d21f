package org.latencyserver.benchmarks;

import java.nio.file.Path;
import java.util.Map;
import org.latencyserver.idl.LatservPOA;
import org.latencyserver.idl.LatservPackage.IdlBaselineMeasurements;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.NO_IMPLEMENT;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * The baseline of the {@code RequestStatus} harness: a {@code Latserv} whose {@code RequestStatus}
 * returns a constant reply of the same type and size and does nothing else — an empty JacORB
 * two-way call, served with the same ORB settings as the real server ({@link OrbSupport#withServerTuning},
 * including its {@code -D} overrides and its off switch).
 */
public final class EmptyLatservMain extends LatservPOA {

    /** The component name in its ready file. */
    static final String COMPONENT = "empty-latserv";

    private final IdlStatusToClient constant = new IdlStatusToClient((short) 1, (short) 1, (short) 1, 1.365f, 1.46f, 1.27f, (short) 0);

    /**
     * @param args {@code --ready-file PATH}: once it serves, a ready file (docs/ready-files.md) of
     *             component {@value #COMPONENT} with its IOR as {@code references.server}
     * @throws Exception when the ORB cannot start
     */
    public static void main(final String[] args) throws Exception {
        // The same ORB settings as the server's (OrbSupport.withServerTuning), so that the harness
        // compares the server's work with an empty call, not two ORB configurations.
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.withServerTuning(OrbSupport.properties("127.0.0.1", 0, 2_000)));
        final POA poa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        poa.the_POAManager().activate();
        if (args.length != 2 || !args[0].equals("--ready-file")) {
            throw new IllegalArgumentException("usage: EmptyLatservMain --ready-file PATH");
        }
        final String ior = orb.object_to_string(poa.servant_to_reference(new EmptyLatservMain()));
        new ReadyFile(ReadyFile.FORMAT, COMPONENT, ProcessHandle.current().pid(), Map.of("server", ior), Map.of(), Map.of(),
            Map.of(), Map.of()).writeTo(Path.of(args[1]));
        orb.run();
    }

    @Override
    public IdlStatusToClient RequestStatus(final short clientRef) {
        return constant;
    }

    @Override
    public void UpdateResponse(final IdlBaselineMeasurements baselineStatus, final short clientRef) {
        throw new NO_IMPLEMENT("baseline only");
    }

    @Override
    public void PutMibUpdates(final IdlMibUpdates mibUpdates, final short clientRef) {
        throw new NO_IMPLEMENT("baseline only");
    }

    @Override
    public TableRow RequestTableStatus(final short clientRef) {
        throw new NO_IMPLEMENT("baseline only");
    }
}
