package org.latencyserver.server.security;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.latencyserver.orb.FileStamp;
import org.latencyserver.orb.RevokedSerials;
import org.latencyserver.server.engine.CallerText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's TLS files as currently in force, re-read when one of them changes: new handshakes
 * use the new key store, trust store and revoked list; handshakes already done keep their
 * session. A file that cannot be used is refused with a WARN naming it, and the last good reading
 * stays in force (it is tried again only when the file changes again).
 *
 * <p>A change is a file's modification time or size differing from the last reading's;
 * {@link #start} checks every given interval on a daemon thread, {@link #reloadIfChanged} checks
 * now. Also remembers, per client subject, the expiry of the last certificate it accepted, for the
 * earliest-expiry metric.
 *
 * <p>Thread-safe: the reading is swapped whole through a volatile field; handshake threads read
 * it, the watcher thread replaces it.
 */
public final class ServerTlsCredentials implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServerTlsCredentials.class);
    /** Client subjects remembered for the expiry metric; beyond it new subjects are not remembered. */
    static final int MAX_CLIENT_SUBJECTS = 10_000;
    private static final Map<String, ServerTlsCredentials> REGISTERED = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT_REGISTRATION = new AtomicLong();

    private final ServerTlsFiles files;
    private final Map<String, Long> clientExpiryMillisBySubject = new ConcurrentHashMap<>();
    private final List<Runnable> reloadListeners = new CopyOnWriteArrayList<>();
    private volatile ServerTlsMaterial current;
    private volatile List<FileStamp> currentStamps;
    private volatile List<FileStamp> refusedStamps = List.of();
    private ScheduledExecutorService watcher;
    private String registeredAs;

    private ServerTlsCredentials(final ServerTlsFiles files, final ServerTlsMaterial first, final List<FileStamp> stamps) {
        this.files = files;
        this.current = first;
        this.currentStamps = stamps;
    }

    /**
     * Reads the files for the first time.
     *
     * @param files where they are
     * @return the credentials
     * @throws IllegalArgumentException naming the file that cannot be used and why
     */
    public static ServerTlsCredentials open(final ServerTlsFiles files) {
        final List<FileStamp> stamps = stamps(files);
        return new ServerTlsCredentials(files, ServerTlsMaterial.read(files), stamps);
    }

    /** @return the reading in force */
    public ServerTlsMaterial current() {
        return current;
    }

    /** @return the files read */
    public ServerTlsFiles files() {
        return files;
    }

    /**
     * Re-reads the files when one changed since the last reading (or the last refused one).
     *
     * @return whether a new reading is now in force
     */
    public synchronized boolean reloadIfChanged() {
        final List<FileStamp> stamps = stamps(files);
        if (stamps.equals(currentStamps) || stamps.equals(refusedStamps)) {
            return false;
        }
        final ServerTlsMaterial next;
        try {
            next = ServerTlsMaterial.read(files);
        } catch (IllegalArgumentException e) {
            refusedStamps = stamps;
            LOG.warn("security.tls: the changed TLS files were refused, the previous ones stay in force for new handshakes: {}",
                CallerText.capped(e.getMessage()));
            return false;
        }
        current = next;
        currentStamps = stamps;
        refusedStamps = List.of();
        LOG.info("security.tls: TLS files re-read; new handshakes present {} (serial {}, valid until {}) and refuse {} revoked"
            + " serial(s)", next.own().getSubjectX500Principal().getName(), RevokedSerials.hex(next.own().getSerialNumber()),
            next.own().getNotAfter().toInstant(), next.revoked().size());
        for (final Runnable listener : reloadListeners) {
            listener.run();
        }
        return true;
    }

    /**
     * Checks the files every {@code intervalMillis} on a daemon thread until {@link #close}.
     *
     * @param intervalMillis the check interval, positive
     * @return this
     */
    public synchronized ServerTlsCredentials start(final long intervalMillis) {
        if (intervalMillis <= 0) {
            throw new IllegalArgumentException("the TLS files' check interval must be positive, was " + intervalMillis + " ms");
        }
        if (watcher == null) {
            watcher = Executors.newSingleThreadScheduledExecutor(runnable -> {
                final Thread thread = new Thread(runnable, "tls-files-watcher");
                thread.setDaemon(true);
                return thread;
            });
            watcher.scheduleWithFixedDelay(this::reloadQuietly, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        }
        return this;
    }

    private void reloadQuietly() {
        try {
            reloadIfChanged();
        } catch (RuntimeException e) {
            LOG.warn("security.tls: checking the TLS files failed; the previous ones stay in force: {}", e.toString());
        }
    }

    /**
     * @param listener run on the reloading thread after each new reading is in force (e.g. to end cached sessions)
     */
    public void onReload(final Runnable listener) {
        reloadListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Remembers an accepted client certificate's expiry under its subject (replacing an older certificate's).
     *
     * @param client the certificate the trust manager accepted
     */
    void clientAccepted(final X509Certificate client) {
        final String subject = client.getSubjectX500Principal().getName();
        if (clientExpiryMillisBySubject.size() < MAX_CLIENT_SUBJECTS || clientExpiryMillisBySubject.containsKey(subject)) {
            clientExpiryMillisBySubject.put(subject, client.getNotAfter().getTime());
        }
    }

    /**
     * @return the client certificate accepted most recently per subject that expires first, as subject and
     *         expiry in epoch milliseconds; empty until a client was accepted
     */
    public Optional<Map.Entry<String, Long>> earliestClientExpiry() {
        return clientExpiryMillisBySubject.entrySet().stream().map(entry -> Map.entry(entry.getKey(), entry.getValue()))
            .min(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()));
    }

    /**
     * Makes these credentials findable by JacORB's socket factory, which JacORB makes from a class name.
     *
     * @return the name, unique in the process, to pass to the ORB as {@link ReloadingSslServerSocketFactory#CREDENTIALS_PROPERTY}
     */
    public synchronized String register() {
        if (registeredAs == null) {
            registeredAs = "tls-credentials-" + NEXT_REGISTRATION.incrementAndGet();
            REGISTERED.put(registeredAs, this);
        }
        return registeredAs;
    }

    /**
     * @param name a name given to {@link #register}
     * @return the credentials registered under it
     * @throws IllegalArgumentException when none are
     */
    static ServerTlsCredentials registered(final String name) {
        final ServerTlsCredentials found = name == null ? null : REGISTERED.get(name);
        if (found == null) {
            throw new IllegalArgumentException("no TLS credentials are registered as '" + name + "'");
        }
        return found;
    }

    /** Stops the watcher and forgets the registration. */
    @Override
    public synchronized void close() {
        if (watcher != null) {
            watcher.shutdownNow();
            watcher = null;
        }
        if (registeredAs != null) {
            REGISTERED.remove(registeredAs, this);
            registeredAs = null;
        }
    }

    private static List<FileStamp> stamps(final ServerTlsFiles files) {
        final List<FileStamp> stamps = new ArrayList<>();
        stamps.add(FileStamp.of(files.keystore()));
        stamps.add(FileStamp.of(files.truststore()));
        if (files.revokedSerials() != null) {
            stamps.add(FileStamp.of(files.revokedSerials()));
        }
        return List.copyOf(stamps);
    }
}
