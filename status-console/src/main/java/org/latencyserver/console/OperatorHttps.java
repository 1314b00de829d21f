package org.latencyserver.console;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.TrustManagerFactory;
import org.latencyserver.orb.TlsStores;

/**
 * The console's web page over HTTPS, for operators only: the JDK's {@code HttpsServer} with the
 * console's server certificate, and a client certificate required of every browser. The TLS
 * handshake fails for a client without a certificate signed by a trusted authority; a client
 * whose certificate is trusted but is not an operator's (its subject's {@code OU} is not
 * {@value #OPERATOR_ROLE}, e.g. an agent's) is answered 403 with the reason in plain text.
 *
 * <p>Why the JDK's server and not an embedded Jetty: it already carries the console's page and
 * event streams, and it does everything HTTPS with client certificates needs (an {@link SSLContext}
 * from the PKCS#12 stores {@code ./latency certs} makes, {@link SSLParameters#setNeedClientAuth},
 * the peer's certificate on the exchange); the request-head time limit that guards it against slow
 * clients applies to the TLS handshake too. No need it fails, so no new dependency.
 *
 * <p>Why client certificates and not a password file: operators already hold certificates
 * ({@code ./latency certs --operator NAME}, the same authority that the server trusts for the
 * operator role), the check happens in the TLS handshake before any request is read (nothing to
 * guess, so no brute-force limits to build), and there is no password file to salt, hash, store and
 * rotate. The cost: each operator's browser must have the operator's PKCS#12 store imported.
 *
 * <p>Immutable and thread-safe.
 */
final class OperatorHttps {

    /** The role, as the subject's {@code OU}, that may read the console over HTTPS. */
    static final String OPERATOR_ROLE = "operator";

    private final SSLContext context;

    private OperatorHttps(final SSLContext context) {
        this.context = context;
    }

    /**
     * @param stores the console's server certificate (with {@code serverAuth} usage, e.g. from
     *               {@code ./latency certs --console NAME}) and the authorities whose client certificates it trusts
     * @return the HTTPS settings
     * @throws IllegalArgumentException naming the store when a store cannot be opened with the password
     */
    static OperatorHttps of(final TlsStores stores) {
        try {
            final KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(load(stores.keystore(), stores.password(), "--https-keystore"), stores.password().toCharArray());
            final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(load(stores.truststore(), stores.password(), "--https-truststore"));
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
            return new OperatorHttps(context);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("the HTTPS stores cannot serve TLS: " + e.getMessage(), e);
        }
    }

    private static KeyStore load(final java.nio.file.Path file, final String password, final String option) {
        try (InputStream in = Files.newInputStream(file)) {
            final KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password.toCharArray());
            return store;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(option + " " + file + " cannot be opened as PKCS#12 with the password: "
                + e.getMessage(), e);
        }
    }

    /** @return the server's configurator: this context, and a client certificate required in every handshake */
    HttpsConfigurator configurator() {
        return new HttpsConfigurator(context) {
            @Override
            public void configure(final HttpsParameters parameters) {
                final SSLParameters ssl = context.getDefaultSSLParameters();
                ssl.setNeedClientAuth(true);
                parameters.setSSLParameters(ssl);
            }
        };
    }

    /**
     * @param exchange a request received over HTTPS
     * @return empty when its client certificate is an operator's; otherwise why it is refused, naming the subject
     */
    static Optional<String> refusal(final HttpExchange exchange) {
        if (!(exchange instanceof HttpsExchange https)) {
            return Optional.of("the console serves operators over HTTPS only");
        }
        final Certificate[] chain;
        try {
            chain = https.getSSLSession().getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return Optional.of("the console serves operators only: present an operator's client certificate");
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate certificate)) {
            return Optional.of("the console serves operators only: present an operator's client certificate");
        }
        final String subject = certificate.getSubjectX500Principal().getName();
        return isOperator(subject) ? Optional.empty() : Optional.of("the console serves operators only (OU="
            + OPERATOR_ROLE + "); the client certificate " + TerminalText.safe(subject) + " is not an operator's");
    }

    /**
     * @param subject an RFC 2253 distinguished name
     * @return whether one of its {@code OU}s is exactly {@value #OPERATOR_ROLE}
     */
    static boolean isOperator(final String subject) {
        try {
            for (final Rdn rdn : new LdapName(subject).getRdns()) {
                if ("OU".equalsIgnoreCase(rdn.getType()) && OPERATOR_ROLE.equals(String.valueOf(rdn.getValue()))) {
                    return true;
                }
            }
            return false;
        } catch (InvalidNameException e) {
            return false;
        }
    }
}
