package org.latencyserver.orb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The key and trust stores of one process's IIOP over TLS: its own certificate and private key
 * (a PKCS#12 file, as {@code keytool} and {@code ./latency certs} make them) and the certificate
 * authorities it trusts, opened with one password.
 *
 * <p>Immutable and thread-safe. {@link #toString()} never shows the password.
 *
 * @param keystore   this process's certificate and key (PKCS#12)
 * @param truststore the certificate authorities whose certificates are accepted (PKCS#12)
 * @param password   opens both stores and the key
 */
public record TlsStores(Path keystore, Path truststore, String password) {

    /** The environment variable that holds the stores' password unless another one is named. */
    public static final String DEFAULT_PASSWORD_ENV = "LATENCY_TLS_PASSWORD";

    /**
     * @throws IllegalArgumentException when a store is not a readable file or the password is empty
     */
    public TlsStores {
        Objects.requireNonNull(keystore, "keystore");
        Objects.requireNonNull(truststore, "truststore");
        for (final Path store : new Path[] {keystore, truststore}) {
            if (!Files.isRegularFile(store) || !Files.isReadable(store)) {
                throw new IllegalArgumentException("TLS store " + store + " is not a readable file");
            }
        }
        if (password == null || password.isEmpty()) {
            throw new IllegalArgumentException("the TLS stores' password is empty");
        }
    }

    /**
     * @param keystore    this process's certificate and key
     * @param truststore  the trusted certificate authorities
     * @param passwordEnv the environment variable holding the password
     * @return the stores
     * @throws IllegalArgumentException when the variable is unset or a store unreadable
     */
    public static TlsStores fromEnvironment(final Path keystore, final Path truststore, final String passwordEnv) {
        final String password = System.getenv(passwordEnv);
        if (password == null || password.isEmpty()) {
            throw new IllegalArgumentException("environment variable " + passwordEnv
                + " (the TLS stores' password) is not set");
        }
        return new TlsStores(keystore, truststore, password);
    }

    /**
     * The stores a pair of command-line options names, for every component that takes a key store and a
     * trust store together ({@code --tls-*}, the console's {@code --https-*}).
     *
     * @param optionPrefix the options' common start, e.g. {@code --tls} (for {@code --tls-keystore}, {@code --tls-truststore})
     * @param keystore     the key store given, or null
     * @param truststore   the trust store given, or null
     * @param passwordEnv  the variable holding their password
     * @return the stores, or null when neither was given
     * @throws IllegalArgumentException when only one is given, or the password variable is unset
     */
    public static TlsStores fromOptions(final String optionPrefix, final Path keystore, final Path truststore,
                                        final String passwordEnv) {
        if (keystore == null && truststore == null) {
            return null;
        }
        if (keystore == null || truststore == null) {
            throw new IllegalArgumentException(optionPrefix + "-keystore and " + optionPrefix + "-truststore go together");
        }
        return fromEnvironment(keystore, truststore, passwordEnv);
    }

    @Override
    public String toString() {
        return "TlsStores[keystore=" + keystore + ", truststore=" + truststore + "]";
    }
}
