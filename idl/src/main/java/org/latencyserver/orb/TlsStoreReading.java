package org.latencyserver.orb;

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

/**
 * One reading of a process's key store and trust store: the key manager over its key store, the JDK's trust
 * manager over its trust store, its own certificate and the trusted authorities. Made whole or not at all, so
 * that a bad file never replaces a good reading.
 *
 * <p>Immutable and thread-safe (the JDK's managers are).
 *
 * @param keyManager   presents the process's certificate
 * @param trustManager decides whether the other end's certificate chains to a trusted authority
 * @param own          the process's certificate (the first of its key store's chain)
 * @param authorities  the certificates of the trust store, in alias order
 */
public record TlsStoreReading(X509ExtendedKeyManager keyManager, X509ExtendedTrustManager trustManager,
                              X509Certificate own, List<X509Certificate> authorities) {

    /** The type both stores are opened as: Java 17's JKS loader reads the PKCS#12 files keytool makes. */
    public static final String STORE_TYPE = "JKS";

    /** Normalises the list. */
    public TlsStoreReading {
        authorities = List.copyOf(authorities);
    }

    /**
     * Reads both stores.
     *
     * @param keystore   the process's certificate and key
     * @param truststore the authorities it trusts
     * @param password   opens both stores and the key
     * @return the reading
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static TlsStoreReading read(final Path keystore, final Path truststore, final String password) {
        final KeyStore keyStore = open(keystore, password, "key store");
        final KeyStore trustStore = open(truststore, password, "trust store");
        try {
            final KeyManagerFactory keys = KeyManagerFactory.getInstance("SunX509");
            keys.init(keyStore, password.toCharArray());
            final X509Certificate own = ownCertificate(keyStore, keystore);
            final TrustManagerFactory trust = TrustManagerFactory.getInstance("SunX509");
            trust.init(trustStore);
            final List<X509Certificate> authorities = new ArrayList<>();
            for (final String alias : Collections.list(trustStore.aliases())) {
                if (trustStore.getCertificate(alias) instanceof X509Certificate authority) {
                    authorities.add(authority);
                }
            }
            if (authorities.isEmpty()) {
                throw new IllegalArgumentException("trust store " + truststore + " holds no certificate");
            }
            return new TlsStoreReading(only(X509ExtendedKeyManager.class, keys.getKeyManagers(), keystore),
                only(X509ExtendedTrustManager.class, trust.getTrustManagers(), truststore), own, authorities);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot use the TLS stores " + keystore + " and " + truststore + ": "
                + e.getMessage(), e);
        }
    }

    /**
     * @param stores a process's stores
     * @return their reading
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static TlsStoreReading read(final TlsStores stores) {
        return read(stores.keystore(), stores.truststore(), stores.password());
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

    private static <T> T only(final Class<T> type, final Object[] managers, final Path file) {
        for (final Object manager : managers) {
            if (type.isInstance(manager)) {
                return type.cast(manager);
            }
        }
        throw new IllegalArgumentException("no " + type.getSimpleName() + " for " + file);
    }
}
