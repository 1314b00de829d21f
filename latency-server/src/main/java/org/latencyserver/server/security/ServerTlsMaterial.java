package org.latencyserver.server.security;

import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.latencyserver.orb.RevokedSerials;
import org.latencyserver.orb.TlsStoreReading;

/**
 * One reading of the server's TLS files: the key manager over its key store, the JDK's trust
 * manager over its trust store (both read by {@link TlsStoreReading}), and the revoked serials.
 * Made whole or not at all, so that a bad file never replaces a good reading.
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
        final TlsStoreReading stores = TlsStoreReading.read(files.keystore(), files.truststore(), files.password());
        return new ServerTlsMaterial(stores.keyManager(), stores.trustManager(), revoked(files.revokedSerials()), stores.own(),
            stores.authorities());
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
}
