package org.latencyserver.orb;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Objects;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A trust manager that asks, at each handshake, the trust manager of the reading of a process's trust store in
 * force ({@link ReloadingTlsStores}), so that a changed trust store is used by new handshakes without a restart.
 *
 * <p>Thread-safe: asks the supplier (a volatile read) once per call.
 */
public final class ReloadingTrustManager extends X509ExtendedTrustManager {

    private final Supplier<X509ExtendedTrustManager> current;

    /** @param current the trust manager of the reading in force, asked at each call */
    public ReloadingTrustManager(final Supplier<X509ExtendedTrustManager> current) {
        this.current = Objects.requireNonNull(current, "current");
    }

    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType, final Socket socket)
        throws CertificateException {
        current.get().checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType, final Socket socket)
        throws CertificateException {
        current.get().checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType, final SSLEngine engine)
        throws CertificateException {
        current.get().checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType, final SSLEngine engine)
        throws CertificateException {
        current.get().checkServerTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType) throws CertificateException {
        current.get().checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType) throws CertificateException {
        current.get().checkServerTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return current.get().getAcceptedIssuers();
    }
}
