package org.latencyserver.server.security;

import java.nio.file.Path;
import java.util.Objects;
import org.latencyserver.orb.RevokedSerials;

/**
 * Where the server's TLS files are: its key store, its trust store, the optional list of revoked
 * client serials, and the password of both stores. {@link #toString()} never shows the password.
 *
 * @param keystore       the server's certificate and key (PKCS#12)
 * @param truststore     the authorities of its clients (PKCS#12)
 * @param revokedSerials revoked client certificates ({@link RevokedSerials}), or null for none
 * @param password       opens both stores and the key
 */
public record ServerTlsFiles(Path keystore, Path truststore, Path revokedSerials, String password) {

    /** Checks that the paths and password are given. */
    public ServerTlsFiles {
        Objects.requireNonNull(keystore, "keystore");
        Objects.requireNonNull(truststore, "truststore");
        Objects.requireNonNull(password, "password");
    }

    @Override
    public String toString() {
        return "ServerTlsFiles[keystore=" + keystore + ", truststore=" + truststore + ", revokedSerials=" + revokedSerials + "]";
    }
}
