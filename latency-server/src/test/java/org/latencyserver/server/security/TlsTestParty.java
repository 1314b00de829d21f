package org.latencyserver.server.security;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/** A TLS client for tests: a party's key store of a local CA, trusting that CA's certificates. */
final class TlsTestParty {

    private TlsTestParty() {
    }

    /** @return the first certificate of {@code store}'s key entry */
    static X509Certificate certificate(final Path store, final String password) throws Exception {
        final KeyStore keys = open(store, password);
        for (final String alias : java.util.Collections.list(keys.aliases())) {
            if (keys.isKeyEntry(alias)) {
                return (X509Certificate) keys.getCertificateChain(alias)[0];
            }
        }
        throw new AssertionError("no key entry in " + store);
    }

    static KeyStore open(final Path store, final String password) throws Exception {
        final KeyStore keys = KeyStore.getInstance("JKS");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, password.toCharArray());
        }
        return keys;
    }

    /**
     * Tries a TLS handshake with {@code party}'s certificate that the server may refuse; the refusal
     * (at the handshake or the first write, as TLS 1.3 has it) is not an error here.
     */
    static void attemptHandshake(final LocalCertificateAuthority ca, final String party, final String password, final int port)
        throws Exception {
        try {
            handshake(ca, party, password, port);
        } catch (IOException refused) {
            // The server's count and log tell it.
        }
    }

    /**
     * Completes a TLS handshake with {@code party}'s certificate (a fresh context: no session to resume),
     * sends a byte and closes.
     *
     * @return the serial of the certificate the server presented
     */
    static BigInteger handshake(final LocalCertificateAuthority ca, final String party, final String password, final int port)
        throws Exception {
        final SSLSocket socket = connect(ca, party, password, port);
        try {
            socket.setSoTimeout(5000);
            socket.startHandshake();
            final BigInteger presented = ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
            sendAByteAndClose(socket);
            return presented;
        } finally {
            sendAByteAndClose(socket);
        }
    }

    /**
     * Opens a TLS connection to loopback with {@code party}'s certificate (a fresh context: no session
     * to resume); the handshake runs at the first read or write.
     *
     * @return the connected socket, the caller's to close
     */
    static SSLSocket connect(final LocalCertificateAuthority ca, final String party, final String password, final int port)
        throws Exception {
        final KeyManagerFactory keys = KeyManagerFactory.getInstance("SunX509");
        keys.init(open(ca.directory().resolve(party + ".p12"), password), password.toCharArray());
        final TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
        trust.init(open(ca.trustStore(), password));
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
        return (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
    }

    /**
     * TLS 1.3: the server judges the client's certificate after the client's side of the handshake
     * ended, so a refused client's write or close_notify may meet a closed connection.
     */
    private static void sendAByteAndClose(final SSLSocket socket) {
        try (socket) {
            if (!socket.isClosed()) {
                socket.getOutputStream().write(0);
                socket.getOutputStream().flush();
            }
        } catch (IOException refusedAfterTheHandshake) {
            // Refused: the server's count and log tell it.
        }
    }
}
