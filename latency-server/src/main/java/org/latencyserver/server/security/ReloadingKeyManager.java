package org.latencyserver.server.security;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The server's key manager: at each handshake, the key manager of the reading of
 * {@link ServerTlsCredentials} in force, so that a re-issued server certificate is presented to
 * new handshakes without a restart. JacORB builds its SSL context once, at ORB start; the context
 * keeps this manager and asks it anew at every handshake.
 *
 * <p>Thread-safe: reads the credentials' volatile reading once per call.
 */
final class ReloadingKeyManager extends X509ExtendedKeyManager {

    private final ServerTlsCredentials credentials;

    /** @param credentials the server's TLS files in force */
    ReloadingKeyManager(final ServerTlsCredentials credentials) {
        this.credentials = credentials;
    }

    private X509ExtendedKeyManager keys() {
        return credentials.current().keyManager();
    }

    @Override
    public String[] getClientAliases(final String keyType, final Principal[] issuers) {
        return keys().getClientAliases(keyType, issuers);
    }

    @Override
    public String chooseClientAlias(final String[] keyType, final Principal[] issuers, final Socket socket) {
        return keys().chooseClientAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineClientAlias(final String[] keyType, final Principal[] issuers, final SSLEngine engine) {
        return keys().chooseEngineClientAlias(keyType, issuers, engine);
    }

    @Override
    public String[] getServerAliases(final String keyType, final Principal[] issuers) {
        return keys().getServerAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(final String keyType, final Principal[] issuers, final Socket socket) {
        return keys().chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineServerAlias(final String keyType, final Principal[] issuers, final SSLEngine engine) {
        return keys().chooseEngineServerAlias(keyType, issuers, engine);
    }

    /*
     * The JDK asks for the chain and the key by the alias it chose a moment before; a reload in
     * between may have renamed it. Both then come from the reading in force, which the next
     * handshake uses whole; an alias the new reading lacks gives null and that one handshake fails.
     */

    @Override
    public X509Certificate[] getCertificateChain(final String alias) {
        return keys().getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(final String alias) {
        return keys().getPrivateKey(alias);
    }
}
