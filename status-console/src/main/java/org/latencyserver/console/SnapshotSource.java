package org.latencyserver.console;

import java.util.function.Consumer;

/**
 * What the web page shows: the latest snapshot, and each new one as it is made. One server's
 * {@link ServerFeed}, or every partition's ({@link PartitionFeeds}).
 *
 * @param <T> the snapshot, written to the page as JSON
 */
interface SnapshotSource<T> {

    /** @return the latest snapshot; never null */
    T snapshot();

    /** Each new snapshot is handed to the observer, on a refresh thread; it must not block. */
    void observe(Consumer<T> observer);
}
