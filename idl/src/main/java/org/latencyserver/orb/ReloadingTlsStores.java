package org.latencyserver.orb;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A process's key store and trust store ({@link TlsStores}) as currently in force for its outgoing IIOP/TLS calls,
 * re-read when one of them changes, as the server re-reads its own: new handshakes use the new certificate and
 * authorities; connections already open keep theirs until they close. A changed file that cannot be used is logged
 * once (WARN, naming the file) and the last good reading stays in force; it is tried again only when a file changes
 * again. A change is a file's modification time or size differing from the last reading's.
 *
 * <p>One instance per set of stores in the process ({@link #shared}): the ORBs, the expiry warning and the ready file
 * of a process see the same reading. Shared instances are checked every {@value #CHECK_INTERVAL_MILLIS} ms on one
 * daemon thread for the life of the process; {@link #reloadIfChanged} checks now.
 *
 * <p>Thread-safe: the reading is swapped whole through a volatile field; handshake threads read it, the checking
 * thread replaces it.
 */
public final class ReloadingTlsStores {

    /** How often shared stores are checked for a change, ms (as the server checks its TLS files). */
    public static final long CHECK_INTERVAL_MILLIS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(ReloadingTlsStores.class);
    private static final Map<TlsStores, ReloadingTlsStores> SHARED = new ConcurrentHashMap<>();
    private static final Map<String, ReloadingTlsStores> REGISTERED = new ConcurrentHashMap<>();
    private static volatile ScheduledExecutorService checker;

    private final TlsStores stores;
    private final String name;
    private final List<Consumer<TlsStoreReading>> reloadListeners = new CopyOnWriteArrayList<>();
    private volatile TlsStoreReading current;
    private List<FileStamp> currentStamps;
    private List<FileStamp> refusedStamps = List.of();

    private ReloadingTlsStores(final TlsStores stores, final String name) {
        this.stores = stores;
        this.name = name;
        this.currentStamps = stamps(stores);
        this.current = TlsStoreReading.read(stores);
    }

    /**
     * The process's reloading instance for these stores, read and checked from now on.
     *
     * @param stores a process's stores
     * @return the instance (the same for equal stores)
     * @throws IllegalArgumentException naming the file that cannot be used and why (at the first reading only)
     */
    public static ReloadingTlsStores shared(final TlsStores stores) {
        Objects.requireNonNull(stores, "stores");
        final ReloadingTlsStores found = SHARED.get(stores);
        if (found != null) {
            return found;
        }
        synchronized (SHARED) {
            final ReloadingTlsStores again = SHARED.get(stores);
            if (again != null) {
                return again;
            }
            final ReloadingTlsStores made = new ReloadingTlsStores(stores, "tls-stores-" + (SHARED.size() + 1));
            SHARED.put(stores, made);
            REGISTERED.put(made.name, made);
            checker().scheduleWithFixedDelay(made::reloadQuietly, CHECK_INTERVAL_MILLIS, CHECK_INTERVAL_MILLIS,
                TimeUnit.MILLISECONDS);
            return made;
        }
    }

    /**
     * @param name a {@link #name()} of a shared instance
     * @return the instance
     * @throws IllegalArgumentException when none has that name
     */
    static ReloadingTlsStores registered(final String name) {
        final ReloadingTlsStores found = name == null ? null : REGISTERED.get(name);
        if (found == null) {
            throw new IllegalArgumentException("no TLS stores are registered as '" + name + "'");
        }
        return found;
    }

    /** @return its name in the process, for an ORB property that JacORB's factories find it by */
    public String name() {
        return name;
    }

    /** @return the stores read */
    public TlsStores stores() {
        return stores;
    }

    /** @return the reading in force */
    public TlsStoreReading current() {
        return current;
    }

    /**
     * @param listener told each new reading, on the thread that read it, once it is in force
     */
    public void onReload(final Consumer<TlsStoreReading> listener) {
        reloadListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** @param listener one given to {@link #onReload}, told no more */
    public void removeOnReload(final Consumer<TlsStoreReading> listener) {
        reloadListeners.remove(listener);
    }

    /**
     * Re-reads the stores when one changed since the last reading (or the last refused one).
     *
     * @return whether a new reading is now in force
     */
    public synchronized boolean reloadIfChanged() {
        final List<FileStamp> stamps = stamps(stores);
        if (stamps.equals(currentStamps) || stamps.equals(refusedStamps)) {
            return false;
        }
        final TlsStoreReading next;
        try {
            next = TlsStoreReading.read(stores);
        } catch (IllegalArgumentException e) {
            refusedStamps = stamps;
            LOG.warn("tls: the changed TLS stores were refused; new connections keep presenting '{}' (serial {}): {}",
                current.own().getSubjectX500Principal().getName(), RevokedSerials.hex(current.own().getSerialNumber()),
                e.getMessage());
            return false;
        }
        current = next;
        currentStamps = stamps;
        refusedStamps = List.of();
        LOG.info("tls: TLS stores {} and {} re-read; new connections present '{}' (serial {}, valid until {})",
            stores.keystore(), stores.truststore(), next.own().getSubjectX500Principal().getName(),
            RevokedSerials.hex(next.own().getSerialNumber()), next.own().getNotAfter().toInstant());
        for (final Consumer<TlsStoreReading> listener : reloadListeners) {
            listener.accept(next);
        }
        return true;
    }

    private void reloadQuietly() {
        try {
            reloadIfChanged();
        } catch (RuntimeException e) {
            LOG.warn("tls: checking the TLS stores {} and {} failed; the previous ones stay in force: {}", stores.keystore(),
                stores.truststore(), e.toString());
        }
    }

    private static ScheduledExecutorService checker() {
        if (checker == null) {
            checker = Executors.newSingleThreadScheduledExecutor(runnable -> {
                final Thread thread = new Thread(runnable, "tls-stores-watcher");
                thread.setDaemon(true);
                return thread;
            });
        }
        return checker;
    }

    private static List<FileStamp> stamps(final TlsStores stores) {
        return List.of(FileStamp.of(stores.keystore()), FileStamp.of(stores.truststore()));
    }
}
