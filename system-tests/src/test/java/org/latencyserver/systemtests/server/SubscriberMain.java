package org.latencyserver.systemtests.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.latencyserver.idl.latency.EstimateListenerHelper;
import org.latencyserver.idl.latency.EstimateListenerOperations;
import org.latencyserver.idl.latency.EstimateListenerPOATie;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * A subscriber in its own JVM, for tests that kill it: subscribes to every estimate change of the
 * server whose IOR file is {@code args[0]}, prints each value, and writes {@code args[1]} once
 * subscribed.
 */
public final class SubscriberMain {

    private SubscriberMain() {
    }

    /**
     * @param args IOR file of the server, marker file to write once subscribed
     * @throws Exception on any failure (the test sees the process exit)
     */
    public static void main(final String[] args) throws Exception {
        final Properties properties = new Properties();
        properties.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        properties.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        properties.setProperty("OAIAddr", "127.0.0.1");
        final ORB orb = ORB.init(new String[0], properties);
        final POA poa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        poa.the_POAManager().activate();
        final EstimateListenerOperations listener = estimate -> System.out.println("estimate " + estimate.value_ms);
        final LatencyService service = LatencyServiceHelper.narrow(orb.string_to_object(Files.readString(Path.of(args[0])).trim()));
        service.subscribe(EstimateListenerHelper.narrow(poa.servant_to_reference(new EstimateListenerPOATie(listener))),
            new short[0]);
        Files.writeString(Path.of(args[1]), "subscribed");
        orb.run();
    }
}
