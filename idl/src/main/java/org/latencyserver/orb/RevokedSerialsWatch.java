package org.latencyserver.orb;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A revoked-serials file ({@link RevokedSerials}) as currently in force for a pinning ORB ({@link TlsPinning}), re-read
 * when it changes, as the server re-reads its own: a change is a modification time or size differing from the last
 * reading's; {@link #start} checks every given interval on a daemon thread, {@link #reloadIfChanged} checks now. A file
 * that cannot be read, or has a bad line, is logged (WARN, naming the file and line) and the last good list stays in
 * force; it is tried again only when it changes again.
 *
 * <p>JacORB makes a pinning ORB's trust manager from a class name, so the watch is found by a name: {@link #register}
 * gives it one for the ORB's properties, {@link #close} forgets it.
 *
 * <p>Thread-safe: the list is swapped whole through a volatile field; handshake and calling threads read it, the
 * watcher thread replaces it.
 */
public final class RevokedSerialsWatch implements AutoCloseable {

    /** How often a started watch checks its file for a change, ms (as the server checks its TLS files). */
    public static final long DEFAULT_CHECK_INTERVAL_MILLIS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(RevokedSerialsWatch.class);
    private static final Map<String, RevokedSerialsWatch> REGISTERED = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT_REGISTRATION = new AtomicLong();

    private final Path file;
    private volatile RevokedSerials current;
    private FileStamp currentStamp;
    private FileStamp refusedStamp;
    private ScheduledExecutorService watcher;
    private String registeredAs;

    private RevokedSerialsWatch(final Path file, final RevokedSerials first, final FileStamp stamp) {
        this.file = file;
        this.current = first;
        this.currentStamp = stamp;
    }

    /**
     * Reads the file for the first time.
     *
     * @param file the revoked-serials file
     * @return the watch, not yet started
     * @throws IllegalArgumentException naming the file (and the line) when it cannot be read or a line is not a serial
     */
    public static RevokedSerialsWatch open(final Path file) {
        final FileStamp stamp = FileStamp.of(file);
        return new RevokedSerialsWatch(file, read(file), stamp);
    }

    /** @return the list in force */
    public RevokedSerials current() {
        return current;
    }

    /** @return the file watched */
    public Path file() {
        return file;
    }

    /**
     * Re-reads the file when it changed since the last reading (or the last refused one).
     *
     * @return whether a new list is now in force
     */
    public synchronized boolean reloadIfChanged() {
        final FileStamp stamp = FileStamp.of(file);
        if (stamp.equals(currentStamp) || stamp.equals(refusedStamp)) {
            return false;
        }
        final RevokedSerials next;
        try {
            next = read(file);
        } catch (IllegalArgumentException e) {
            refusedStamp = stamp;
            LOG.warn("the changed revoked-serials file was refused; the previous list ({} serial(s)) stays in force: {}",
                current.size(), e.getMessage());
            return false;
        }
        current = next;
        currentStamp = stamp;
        refusedStamp = null;
        LOG.info("revoked-serials file {} re-read: {} serial(s) refused from now on", file, next.size());
        return true;
    }

    /**
     * Checks the file every {@code intervalMillis} on a daemon thread until {@link #close}.
     *
     * @param intervalMillis the check interval, positive
     * @return this
     */
    public synchronized RevokedSerialsWatch start(final long intervalMillis) {
        if (intervalMillis <= 0) {
            throw new IllegalArgumentException("the revoked-serials file's check interval must be positive, was "
                + intervalMillis + " ms");
        }
        if (watcher == null) {
            watcher = Executors.newSingleThreadScheduledExecutor(runnable -> {
                final Thread thread = new Thread(runnable, "revoked-serials-watcher");
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
            LOG.warn("checking the revoked-serials file {} failed; the previous list stays in force: {}", file, e.toString());
        }
    }

    /**
     * Makes this watch findable by a pinning ORB's trust manager and interceptor, which JacORB makes from class names.
     *
     * @return the name, unique in the process, that {@link TlsPinning#pinningClient(java.util.Properties, TlsStores,
     *         RevokedSerialsWatch)} puts in the ORB's properties
     */
    public synchronized String register() {
        if (registeredAs == null) {
            registeredAs = "revoked-serials-" + NEXT_REGISTRATION.incrementAndGet();
            REGISTERED.put(registeredAs, this);
        }
        return registeredAs;
    }

    /**
     * @param name a name given by {@link #register}, or null
     * @return the watch registered under it; null for a null name
     * @throws IllegalArgumentException when a name is given and no watch is registered under it
     */
    static RevokedSerialsWatch registered(final String name) {
        if (name == null || name.isEmpty()) {
            return null;
        }
        final RevokedSerialsWatch found = REGISTERED.get(name);
        if (found == null) {
            throw new IllegalArgumentException("no revoked-serials file is registered as '" + name + "'");
        }
        return found;
    }

    /** Stops the watcher and forgets the registration; the list last in force stays readable. */
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

    private static RevokedSerials read(final Path file) {
        try {
            return RevokedSerials.read(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("revoked serials file " + file + " cannot be read: " + e.getMessage(), e);
        }
    }
}
