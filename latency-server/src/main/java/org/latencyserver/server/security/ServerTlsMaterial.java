package org.latencyserver.server.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.latencyserver.orb.RevokedSerials;

/**
 * One reading of the server's TLS files: the key manager over its key store, the JDK's trust
 * manager over its trust store, and the revoked serials. Made whole or not at all, so that a bad
 * file never replaces a good reading.
 *
 * <p>Immutable and thread-safe (the JDK's managers are).
 *
 * @param keyManager     presents the server's certificate
 * @param trustManager   decides whether a client certificate chains to a trusted authority
 * @param revoked        client certificates refused although they chain
 * @param own            the server's certificate (the first of its key store's chain)
 * @param authorities    the certificates of the trust store, in alias order
 */
public record ServerTlsMaterial(X509ExtendedKeyManager keyManager, X509ExtendedTrustManager trustManager,
                                RevokedSerials revoked, X509Certificate own, List<X509Certificate> authorities) {

    /** The type both stores are opened as: Java 17's JKS loader reads the PKCS#12 files keytool makes. */
    static final String STORE_TYPE = "JKS";

    /** Normalises the list. */
    public ServerTlsMaterial {
        authorities = List.copyOf(authorities);
    }

    /**
     * Reads the three files.
     *
     * @param files    where they are and the stores' password
     * @return the reading
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static ServerTlsMaterial read(final ServerTlsFiles files) {
        final KeyStore keyStore = open(files.keystore(), files.password(), "key store");
        final KeyStore trustStore = open(files.truststore(), files.password(), "trust store");
        try {
            final KeyManagerFactory keys = KeyManagerFactory.getInstance("SunX509");
            keys.init(keyStore, files.password().toCharArray());
            final X509Certificate own = ownCertificate(keyStore, files.keystore());
            final TrustManagerFactory trust = TrustManagerFactory.getInstance("SunX509");
            trust.init(trustStore);
            final List<X509Certificate> authorities = new ArrayList<>();
            for (final String alias : Collections.list(trustStore.aliases())) {
                if (trustStore.getCertificate(alias) instanceof X509Certificate authority) {
                    authorities.add(authority);
                }
            }
            if (authorities.isEmpty()) {
                throw new IllegalArgumentException("trust store " + files.truststore() + " holds no certificate");
            }
            final RevokedSerials revoked = revoked(files.revokedSerials());
            return new ServerTlsMaterial(only(X509ExtendedKeyManager.class, keys.getKeyManagers(), files.keystore()),
                only(X509ExtendedTrustManager.class, trust.getTrustManagers(), files.truststore()), revoked, own, authorities);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot use the TLS stores " + files.keystore() + " and " + files.truststore()
                + ": " + e.getMessage(), e);
        }
    }

    private static KeyStore open(final Path file, final String password, final String what) {
        try (InputStream in = Files.newInputStream(file)) {
            final KeyStore store = KeyStore.getInstance(STORE_TYPE);
            store.load(in, password.toCharArray());
            return store;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(what + " " + file + " cannot be opened: " + e.getMessage(), e);
        }
    }

    private static X509Certificate ownCertificate(final KeyStore keyStore, final Path file) throws GeneralSecurityException {
        for (final String alias : Collections.list(keyStore.aliases())) {
            if (keyStore.isKeyEntry(alias)) {
                final Certificate[] chain = keyStore.getCertificateChain(alias);
                if (chain != null && chain.length > 0 && chain[0] instanceof X509Certificate certificate) {
                    return certificate;
                }
            }
        }
        throw new IllegalArgumentException("key store " + file + " holds no private key with a certificate");
    }

    private static RevokedSerials revoked(final Path file) {
        if (file == null) {
            return RevokedSerials.NONE;
        }
        try {
            return RevokedSerials.read(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("revoked serials file " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    private static <T> T only(final Class<T> type, final Object[] managers, final Path file) {
        for (final Object manager : managers) {
            if (type.isInstance(manager)) {
                return type.cast(manager);
            }
        }
        throw new IllegalArgumentException("no " + type.getSimpleName() + " for " + file);
    }
}
