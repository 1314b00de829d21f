package org.latencyserver.emulator;

import java.util.Properties;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.omg.CORBA.ORB;

/**
 * Delivers updates with the thesis call {@code Latserv.PutMibUpdates(update, update.index_ref)}
 * to the server named by an IOR or {@code corbaloc:} reference, through JacORB. The reference is
 * resolved lazily and resolved again after a failure, so a server that starts late or restarts
 * is found again.
 *
 * <p>Not thread-safe: used by the single push thread.
 */
public final class CorbaMibUpdateTarget implements MibUpdateTarget, AutoCloseable {
    /** How long one call may wait for the server, in milliseconds, so a hung server cannot stall push mode. */
    static final int REPLY_TIMEOUT_MILLIS = 2000;

    private final ORB orb;
    private final String reference;
    private Latserv server;

    /** @param reference an {@code IOR:…} or {@code corbaloc:…} reference to a Latserv object */
    public CorbaMibUpdateTarget(String reference) {
        this(reference, null);
    }

    /**
     * @param reference an {@code IOR:…} or {@code corbaloc:…} reference to a Latserv object
     * @param tls       an operator's certificate to push over IIOP/TLS with, or null for plain IIOP
     */
    public CorbaMibUpdateTarget(String reference, org.latencyserver.orb.TlsStores tls) {
        this.reference = reference;
        Properties props = new Properties();
        props.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        props.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        props.setProperty("jacorb.connection.client.pending_reply_timeout", String.valueOf(REPLY_TIMEOUT_MILLIS));
        props.setProperty("jacorb.connection.client.connect_timeout", String.valueOf(REPLY_TIMEOUT_MILLIS));
        props.setProperty("jacorb.retries", "0");
        if (tls != null) {
            org.latencyserver.orb.OrbSupport.withTlsClient(props, tls);
        }
        this.orb = ORB.init(new String[0], props);
    }

    @Override
    public void put(IdlMibUpdates update) {
        if (server == null) {
            server = LatservHelper.unchecked_narrow(orb.string_to_object(reference));
        }
        try {
            server.PutMibUpdates(update, update.index_ref);
        } catch (RuntimeException e) {
            server = null;
            throw e;
        }
    }

    @Override
    public void close() {
        orb.shutdown(false);
        orb.destroy();
    }
}
