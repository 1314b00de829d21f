package org.latencyserver.orb;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.security.auth.x500.X500Principal;
import org.jacorb.config.Configurable;
import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;

/**
 * The trust manager of a pinning ORB ({@link TlsPinning#pinningClient}): JSSE's PKIX check of the other end's
 * chain against the ORB's trust store (the deployment's CA), unchanged, plus a note of why it refused a chain,
 * kept by the other end's {@code IP:PORT} for the call that failed, which then says so instead of JacORB's
 * {@code TRANSIENT "Retries exceeded"}. At most {@value #MAX_REFUSALS_KEPT} notes are kept per ORB. A chain JSSE accepts
 * is refused still when its certificate's serial is in the ORB's revoked list ({@link RevokedSerialsWatch}), so a
 * revoked end never completes a handshake.
 *
 * <p>JacORB makes it from the ORB property {@code jacorb.security.ssl.client.trust_manager} and configures it
 * with the ORB's configuration; {@link ReloadingSslSocketFactory} puts it in the ORB's SSL context. The trust store
 * is the one in force for the ORB's {@link ReloadingTlsStores}, re-read when it changes. Thread-safe once configured.
 */
public final class PinningTrustManager extends X509ExtendedTrustManager implements Configurable {

    /** The most refusal notes kept per ORB: the notes of ends never called again are dropped beyond it. */
    static final int MAX_REFUSALS_KEPT = 256;

    /** JSSE's check against the trust store in force ({@link ReloadingTlsStores}). */
    private X509ExtendedTrustManager trusted;
    private Map<String, TlsPinning.HandshakeRefusal> refusals = new ConcurrentHashMap<>();
    private RevokedSerialsWatch revoked;

    /** Made by JacORB; unusable until {@link #configure}d. */
    public PinningTrustManager() {
    }

    @Override
    public void configure(final Configuration configuration) throws ConfigurationException {
        final ReloadingTlsStores stores = ReloadingSslSocketFactory.storesOf(configuration);
        trusted = new ReloadingTrustManager(() -> stores.current().trustManager());
        refusals = TlsPinning.HANDSHAKE_REFUSALS.computeIfAbsent(configuration.getORB(), orb -> new ConcurrentHashMap<>());
        try {
            revoked = TlsPinning.revokedSerialsOf(configuration);
        } catch (IllegalStateException e) {
            throw new ConfigurationException(e.getMessage(), e);
        }
    }

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType, final Socket socket)
        throws CertificateException {
        final String address = socket == null || socket.getInetAddress() == null ? null
            : socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
        try {
            trusted.checkServerTrusted(chain, authType, socket);
        } catch (CertificateException e) {
            if (address != null) {
                note(address, chain, "is not accepted by the trust store's CAs: " + e.getMessage());
            }
            throw e;
        }
        refuseIfRevoked(chain, address);
    }

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType, final SSLEngine engine)
        throws CertificateException {
        trusted.checkServerTrusted(chain, authType, engine);
        refuseIfRevoked(chain, null);
    }

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType) throws CertificateException {
        trusted.checkServerTrusted(chain, authType);
        refuseIfRevoked(chain, null);
    }

    /** Refuses a chain JSSE accepted whose certificate is revoked, noting why for the call when the address is known. */
    private void refuseIfRevoked(final X509Certificate[] chain, final String address) throws CertificateException {
        final String revocation = TlsPinning.revocation(revoked, chain[0].getSerialNumber());
        if (revocation == null) {
            return;
        }
        if (address != null) {
            note(address, chain, "is revoked: its serial " + RevokedSerials.hex(chain[0].getSerialNumber()) + " is listed in "
                + revoked.file());
        }
        throw new CertificateException(revocation);
    }

    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType, final Socket socket)
        throws CertificateException {
        trusted.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType, final SSLEngine engine)
        throws CertificateException {
        trusted.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType) throws CertificateException {
        trusted.checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return trusted.getAcceptedIssuers();
    }

    private void note(final String address, final X509Certificate[] chain, final String why) {
        if (refusals.size() >= MAX_REFUSALS_KEPT) {
            refusals.clear();
        }
        final String subject = chain == null || chain.length == 0 ? "no certificate"
            : "its certificate '" + chain[0].getSubjectX500Principal().getName(X500Principal.RFC2253) + "' (issued by '"
                + chain[0].getIssuerX500Principal().getName(X500Principal.RFC2253) + "')";
        refusals.put(address, new TlsPinning.HandshakeRefusal(subject + " " + why, System.nanoTime()));
    }
}
