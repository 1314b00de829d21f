package org.latencyserver.orb;

import java.security.GeneralSecurityException;
import java.util.Collections;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;

/**
 * The SSL context both reloading JacORB socket factories build: a {@link ReloadingKeyManager} over the process's
 * {@link ReloadingTlsStores}, and the trust manager a JacORB property names, else a {@link ReloadingTrustManager} over
 * the same stores; and the ending of cached sessions when the stores are re-read.
 *
 * <p>Stateless and thread-safe.
 */
public final class ReloadingSslContexts {

    private ReloadingSslContexts() {
    }

    /**
     * @param configuration        the ORB's configuration
     * @param stores               the process's stores
     * @param trustManagerProperty the JacORB property that may name a trust manager object
     * @param what                 the socket's side, for the message: "client" or "listener"
     * @return the SSL context
     * @throws ConfigurationException when the property names no X.509 trust manager, or the context cannot be made
     */
    static SSLContext of(final Configuration configuration, final ReloadingTlsStores stores, final String trustManagerProperty,
                         final String what) throws ConfigurationException {
        final TrustManager trust;
        if (configuration.getAttribute(trustManagerProperty, "").isEmpty()) {
            trust = new ReloadingTrustManager(() -> stores.current().trustManager());
        } else {
            final Object named = configuration.getAttributeAsObject(trustManagerProperty);
            if (!(named instanceof X509TrustManager)) {
                throw new ConfigurationException(trustManagerProperty + " names no X.509 trust manager: "
                    + configuration.getAttribute(trustManagerProperty, ""));
            }
            trust = (TrustManager) named;
        }
        try {
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[] {new ReloadingKeyManager(() -> stores.current().keyManager())},
                new TrustManager[] {trust}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new ConfigurationException("cannot make the TLS " + what + "'s SSL context: " + e.getMessage(), e);
        }
    }

    /**
     * Ends every cached session, so that the next connection makes a full handshake with the stores in force.
     *
     * @param sessions a context's client or server sessions
     */
    public static void endCachedSessions(final SSLSessionContext sessions) {
        for (final byte[] id : Collections.list(sessions.getIds())) {
            final SSLSession session = sessions.getSession(id);
            if (session != null) {
                session.invalidate();
            }
        }
    }
}
