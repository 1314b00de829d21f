package org.latencyserver.server.it;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.ORB;

/**
 * A server secured with the test CA ({@link TestCertificates}) and its callers in a test: one
 * plain-IIOP ORB, and one TLS ORB per party (made on first use). Closing stops both. Thread-safe.
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
    private SecuredClients(final TestCertificates certificates, final ServerProcess server) {
        this.certificates = certificates;
        this.server = server;
    }

    /**
     * Starts a server on a configuration with the test CA's {@code security:} section appended.
     *
     * @param directory   where the configuration, IOR and log go
     * @param fileName    the configuration's file name
     * @param config      the configuration without a security section
     * @param environment more environment variables of the server (the TLS password is added)
     * @return the running server and its callers
     */
    static SecuredClients start(final Path directory, final String fileName, final String config,
                                final Map<String, String> environment) throws IOException, InterruptedException {
        final TestCertificates certificates = TestCertificates.get();
        final Map<String, String> withPassword = new HashMap<>(environment);
        withPassword.put("LATENCY_TLS_PASSWORD", certificates.password());
        return new SecuredClients(certificates, ServerProcess.start(Testbed.write(directory, fileName,
            config + certificates.securitySection()), directory, withPassword));
    }

    /** @return the server process */
    ServerProcess server() {
        return server;
    }

    private String ior() {
        return server.ior();
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
    public void close() throws InterruptedException {
        synchronized (tlsOrbs) {
            tlsOrbs.values().forEach(orb -> orb.shutdown(false));
        }
        plainOrb.shutdown(false);
        server.close();
    }
}
