package org.latencyserver.idl;

import java.lang.reflect.Proxy;
import java.util.Map;
import org.latencyserver.idl.latency.LatencyServiceOperations;
import org.latencyserver.idl.latency.LatencyServicePOATie;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.TlsStores;
import org.omg.CORBA.NO_IMPLEMENT;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * A LatencyService in the test's JVM, on an ORB set up as the components set theirs up, that
 * answers the calls a test scripts and raises NO_IMPLEMENT for every other: a component under test
 * that calls something the test did not expect fails loudly.
 */
public final class StandInServer implements AutoCloseable {

    /** How the stand-in answers one operation, given the call's arguments. */
    @FunctionalInterface
    public interface Answer {
        Object answer(Object[] args) throws Exception;
    }

    private final ORB orb;
    private final String ior;

    private StandInServer(final ORB orb, final String ior) {
        this.orb = orb;
        this.ior = ior;
    }

    /**
     * @param answers by operation name, what the stand-in answers
     * @return the stand-in, serving on loopback
     */
    public static StandInServer start(final Map<String, Answer> answers) throws Exception {
        return start(answers, null);
    }

    /**
     * @param answers by operation name, what the stand-in answers
     * @param tls     the stand-in's certificate and trusted CAs, to serve IIOP/TLS beside plain IIOP; null for plain only
     * @return the stand-in, serving on loopback
     */
    public static StandInServer start(final Map<String, Answer> answers, final TlsStores tls) throws Exception {
        final java.util.Properties properties = OrbSupport.properties("127.0.0.1", 0, 10_000);
        if (tls != null) {
            OrbSupport.withTlsServer(properties, tls, 0);
            // A caller in this JVM would otherwise be served in-process, past TLS and its certificate checks.
            properties.setProperty("jacorb.iiop.enable_loopback", "off");
        }
        final ORB orb = OrbSupport.init(new String[0], properties);
        try {
            final POA poa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
            poa.the_POAManager().activate();
            final LatencyServiceOperations service = (LatencyServiceOperations) Proxy.newProxyInstance(
                LatencyServiceOperations.class.getClassLoader(), new Class<?>[] {LatencyServiceOperations.class},
                (proxy, method, args) -> {
                    final Answer answer = answers.get(method.getName());
                    if (answer == null) {
                        throw new NO_IMPLEMENT(method.getName());
                    }
                    return answer.answer(args);
                });
            return new StandInServer(orb, orb.object_to_string(poa.servant_to_reference(new LatencyServicePOATie(service))));
        } catch (Exception | Error e) {
            orb.shutdown(false);
            throw e;
        }
    }

    /** @return the stand-in's reference, as a string a component is given with --server */
    public String ior() {
        return ior;
    }

    /** Shuts the stand-in's ORB down. */
    @Override
    public void close() {
        orb.shutdown(false);
    }
}
