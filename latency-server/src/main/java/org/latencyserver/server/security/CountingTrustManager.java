package org.latencyserver.server.security;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import org.latencyserver.orb.RevokedSerials;
import org.latencyserver.server.engine.CallerText;

/**
 * The server's TLS trust manager: the JDK's, over the trust store of the reading of
 * {@link ServerTlsCredentials} in force, then the revoked serials; every client certificate it
 * refuses is counted and logged by {@link TlsHandshakeFailures} before the refusal ends the
 * handshake, and every one it accepts is remembered for the earliest-expiry metric. A re-read
 * trust store or revoked list applies from the next handshake on.
 *
 * <p>Thread-safe: reads the credentials' volatile reading once per call; the JDK's trust manager is thread-safe.
 */
public final class CountingTrustManager extends X509ExtendedTrustManager {

    private final ServerTlsCredentials credentials;

    /** @param credentials the server's TLS files in force */
    public CountingTrustManager(final ServerTlsCredentials credentials) {
        this.credentials = credentials;
    }

    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType, final Socket socket)
        throws CertificateException {
        final ServerTlsMaterial material = credentials.current();
        final String peer = socket == null ? null : String.valueOf(socket.getRemoteSocketAddress());
        try {
            material.trustManager().checkClientTrusted(chain, authType, socket);
        } catch (CertificateException e) {
            throw refused(e, chain, peer);
        }
        accepted(material, chain, peer);
    }

    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType, final SSLEngine engine)
        throws CertificateException {
        final ServerTlsMaterial material = credentials.current();
        final String peer = engine == null ? null : engine.getPeerHost() + ":" + engine.getPeerPort();
        try {
            material.trustManager().checkClientTrusted(chain, authType, engine);
        } catch (CertificateException e) {
            throw refused(e, chain, peer);
        }
        accepted(material, chain, peer);
    }

    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType) throws CertificateException {
        final ServerTlsMaterial material = credentials.current();
        try {
            material.trustManager().checkClientTrusted(chain, authType);
        } catch (CertificateException e) {
            throw refused(e, chain, null);
        }
        accepted(material, chain, null);
    }

    /** Refuses a chain that the JDK accepted but whose certificate is revoked; remembers it otherwise. */
    private void accepted(final ServerTlsMaterial material, final X509Certificate[] chain, final String peer)
        throws CertificateException {
        final X509Certificate client = chain[0];
        if (material.revoked().contains(client.getSerialNumber())) {
            final CertificateException revoked = new CertificateException("certificate serial "
                + RevokedSerials.hex(client.getSerialNumber()) + " is revoked");
            TlsHandshakeFailures.record(HandshakeFailure.REVOKED, peer == null ? "unknown" : peer, subjectOf(chain),
                revoked.getMessage());
            throw revoked;
        }
        credentials.clientAccepted(client);
    }

    private static String subjectOf(final X509Certificate[] chain) {
        return chain == null || chain.length == 0 ? "none"
            : "certificate '" + CallerText.capped(chain[0].getSubjectX500Principal().getName()) + "'";
    }

    private static CertificateException refused(final CertificateException refusal, final X509Certificate[] chain,
                                                final String peer) {
        TlsHandshakeFailures.record(HandshakeFailure.of(refusal), peer == null ? "unknown" : peer, subjectOf(chain),
            CallerText.capped(String.valueOf(refusal.getMessage())));
        return refusal;
    }

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType, final Socket socket)
        throws CertificateException {
        credentials.current().trustManager().checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType, final SSLEngine engine)
        throws CertificateException {
        credentials.current().trustManager().checkServerTrusted(chain, authType, engine);
    }

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType) throws CertificateException {
        credentials.current().trustManager().checkServerTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return credentials.current().trustManager().getAcceptedIssuers();
    }
}
