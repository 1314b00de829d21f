package org.latencyserver.server.it;

import java.util.HashMap;
import java.util.Map;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.ORB;

/**
 * The callers of a secured server in a test: one plain-IIOP ORB, and one TLS ORB per party of
 * {@link TestCertificates} (made on first use). Thread-safe.
 */
final class SecuredClients implements AutoCloseable {

    private final TestCertificates certificates;
    private final ServerProcess server;
    private final ORB plainOrb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
    private final Map<String, ORB> tlsOrbs = new HashMap<>();

    /**
     * @param certificates the parties
     * @param server       the server they call
     */
    SecuredClients(final TestCertificates certificates, final ServerProcess server) {
        this.certificates = certificates;
        this.server = server;
    }

    private String ior() {
        try {
            return server.ior();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** @return the server as a plain IIOP caller sees it */
    LatencyService plain() {
        return LatencyServiceHelper.narrow(plainOrb.string_to_object(ior()));
    }

    /**
     * @param party e.g. {@code operator-ops}, {@code agent-ws1}, {@code none}
     * @return the server, called over TLS with the party's certificate
     */
    LatencyService as(final String party) {
        final ORB orb;
        synchronized (tlsOrbs) {
            orb = tlsOrbs.computeIfAbsent(party, certificates::orbFor);
        }
        return LatencyServiceHelper.narrow(orb.string_to_object(ior()));
    }

    /** @return the plain ORB, for servants a test hands to the server */
    ORB plainOrb() {
        return plainOrb;
    }

    @Override
    public void close() {
        synchronized (tlsOrbs) {
            tlsOrbs.values().forEach(orb -> orb.shutdown(false));
        }
        plainOrb.shutdown(false);
    }
}
