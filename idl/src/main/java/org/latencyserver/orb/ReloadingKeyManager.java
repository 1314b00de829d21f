package org.latencyserver.orb;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A key manager that asks, at each handshake, the key manager of the reading of a process's key store in force,
 * so that a re-issued certificate is presented by new handshakes without a restart. JacORB builds an SSL context
 * once, at ORB start; the context keeps this manager and asks it anew at every handshake. Used by the server's
 * listener and by {@link ReloadingSslSocketFactory} for outgoing calls.
 *
 * <p>Thread-safe: asks the supplier (a volatile read) once per call.
 */
public final class ReloadingKeyManager extends X509ExtendedKeyManager {

    private final Supplier<X509ExtendedKeyManager> current;

    /** @param current the key manager of the reading in force, asked at each call */
    public ReloadingKeyManager(final Supplier<X509ExtendedKeyManager> current) {
        this.current = Objects.requireNonNull(current, "current");
    }

    private X509ExtendedKeyManager keys() {
        return current.get();
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
