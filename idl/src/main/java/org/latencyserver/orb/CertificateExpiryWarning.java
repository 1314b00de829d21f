package org.latencyserver.orb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.launch.agent.PeriodicAgent;
import org.latencyserver.launch.agent.PeriodicDeadline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For a process without a metrics endpoint (client agent, console): a WARN at start and once a day
 * while its own TLS certificate expires within {@link #WARNING_DAYS} days (or has expired), and the
 * expiry for its ready file ({@value #READY_FACT}). It follows the process's {@link ReloadingTlsStores}: when a
 * renewed certificate is read, the expiry is the new one's, it is checked at once, and the listeners given to
 * {@link #onCertificateChange} are told (to rewrite the ready file).
 *
 * <p>Thread-safe: the certificate is swapped through a volatile field by the reloading thread; the daily check runs
 * on its own agent thread.
 */
public final class CertificateExpiryWarning implements AutoCloseable {

    /** How many days ahead of expiry the warnings begin. */
    public static final int WARNING_DAYS = 30;
    /** The ready file's fact holding the certificate's expiry (ISO-8601 instant, UTC). */
    public static final String READY_FACT = "tls_certificate_expires";

    private static final Logger LOG = LoggerFactory.getLogger(CertificateExpiryWarning.class);
    private static final long DAY_NANOS = TimeUnit.DAYS.toNanos(1);

    private final Path keystore;
    private final Supplier<Instant> clock;
    private final List<Runnable> changeListeners = new CopyOnWriteArrayList<>();
    private final Consumer<TlsStoreReading> onReload = this::reloaded;
    private volatile X509Certificate certificate;
    private ReloadingTlsStores followed;
    private AgentRunner daily;

    private CertificateExpiryWarning(final X509Certificate certificate, final Path keystore, final Supplier<Instant> clock) {
        this.certificate = certificate;
        this.keystore = keystore;
        this.clock = clock;
    }

    /**
     * Reads the process's own certificate, warns now when it expires soon, and again once a day.
     *
     * @param stores the process's TLS stores
     * @return the running check; close it when the process stops
     * @throws IllegalArgumentException when the key store cannot be opened or holds no certificate
     */
    public static CertificateExpiryWarning start(final TlsStores stores) {
        final ReloadingTlsStores reloading = ReloadingTlsStores.shared(stores);
        final CertificateExpiryWarning warning = new CertificateExpiryWarning(reloading.current().own(), stores.keystore(),
            Instant::now);
        warning.followed = reloading;
        reloading.onReload(warning.onReload);
        warning.check();
        final String role = "tls-certificate-expiry";
        warning.daily = new AgentRunner(PeriodicAgent.named(role)
            .duty(PeriodicDeadline.Kind.FIXED_RATE, DAY_NANOS, DAY_NANOS, warning::check)
            .interruptOnClose()
            .build(), NoIdleStrategy.INSTANCE, new DistinctErrorLog(role), System::nanoTime, Duration.ofSeconds(2));
        warning.daily.start();
        return warning;
    }

    /**
     * @param stores TLS stores
     * @return the certificate of the key store's first key entry
     * @throws IllegalArgumentException when the key store cannot be opened or holds no certificate
     */
    public static X509Certificate ownCertificate(final TlsStores stores) {
        try (InputStream in = Files.newInputStream(stores.keystore())) {
            // Java 17's JKS loader reads the PKCS#12 files keytool makes.
            final KeyStore keys = KeyStore.getInstance("JKS");
            keys.load(in, stores.password().toCharArray());
            for (final String alias : Collections.list(keys.aliases())) {
                final Certificate[] chain = keys.isKeyEntry(alias) ? keys.getCertificateChain(alias) : null;
                if (chain != null && chain.length > 0 && chain[0] instanceof X509Certificate own) {
                    return own;
                }
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("TLS key store " + stores.keystore() + " cannot be opened: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("TLS key store " + stores.keystore() + " holds no certificate with a key");
    }

    /**
     * @param certificate a certificate
     * @param keystore    the store it is in, for the message
     * @param now         the time now
     * @return the warning when it expires within {@link #WARNING_DAYS} days or has expired, else empty
     */
    public static Optional<String> warningAt(final X509Certificate certificate, final Path keystore, final Instant now) {
        final Instant expires = certificate.getNotAfter().toInstant();
        final long daysLeft = ChronoUnit.DAYS.between(now, expires);
        if (!expires.isAfter(now)) {
            return Optional.of("TLS certificate '" + certificate.getSubjectX500Principal().getName() + "' in " + keystore
                + " expired " + expires + ": the server refuses it; renew it");
        }
        if (expires.isAfter(now.plus(WARNING_DAYS, ChronoUnit.DAYS))) {
            return Optional.empty();
        }
        return Optional.of("TLS certificate '" + certificate.getSubjectX500Principal().getName() + "' in " + keystore
            + " expires " + expires + ", in " + daysLeft + " day" + (daysLeft == 1 ? "" : "s") + ": renew it");
    }

    /** @return when the certificate in force expires, as the ready file's fact {@value #READY_FACT} */
    public Instant expires() {
        return certificate.getNotAfter().toInstant();
    }

    /**
     * @param listener run on the reloading thread after a renewed certificate is in force, once it is checked
     */
    public void onCertificateChange(final Runnable listener) {
        changeListeners.add(listener);
    }

    private void reloaded(final TlsStoreReading reading) {
        if (reading.own().equals(certificate)) {
            return;
        }
        certificate = reading.own();
        check();
        for (final Runnable listener : changeListeners) {
            listener.run();
        }
    }

    private void check() {
        warningAt(certificate, keystore, clock.get()).ifPresent(text -> LOG.warn("{}", text));
    }

    /** Stops the daily check and following reloads. */
    @Override
    public synchronized void close() {
        if (followed != null) {
            followed.removeOnReload(onReload);
            followed = null;
        }
        if (daily != null) {
            daily.close();
            daily = null;
        }
    }
}
