package org.latencyserver.server.engine;

import java.util.HashMap;
import java.util.Map;
import org.latencyserver.core.estimate.ProfileHistograms;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.ConnectionLoadState;

/**
 * The composed histograms of paths with two or more loaded ports (the convolution of their parts, with the samples
 * their intervals rest on), by profile, combined load state and message size: a convolution costs milliseconds, and a
 * path's state is served, re-served and asked about (percentiles, deadline misses) many times while it holds.
 *
 * <p>Immutable and thread-safe: the update thread makes a new snapshot with each histogram it adds and publishes it;
 * callers on other threads read the published snapshot and compute what it lacks without keeping it. The profile is
 * keyed by identity (a profile replaced under its name is {@linkplain #without dropped}). At most
 * {@value #MAX_ENTRIES} entries; a snapshot that would hold more starts afresh.
 */
final class PathHistograms {

    /** Far above the combined states a configuration's paths take (profiles × states × sizes). */
    static final int MAX_ENTRIES = 1024;

    /** No histogram yet. */
    static final PathHistograms EMPTY = new PathHistograms(Map.of());

    private record Key(Profile profile, ConnectionLoadState load, int messageSizeBytes) {

        @Override
        public boolean equals(final Object other) {
            return other instanceof Key k && k.profile == profile && k.load.equals(load) && k.messageSizeBytes == messageSizeBytes;
        }

        @Override
        public int hashCode() {
            return (System.identityHashCode(profile) * 31 + load.hashCode()) * 31 + messageSizeBytes;
        }
    }

    private final Map<Key, ProfileHistograms.StateHistogram> histograms;

    private PathHistograms(final Map<Key, ProfileHistograms.StateHistogram> histograms) {
        this.histograms = histograms;
    }

    /** @return the composed histogram kept for the key, or null */
    ProfileHistograms.StateHistogram find(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes) {
        return histograms.get(new Key(profile, load, messageSizeBytes));
    }

    /** @return a snapshot with the histogram added (this one is unchanged) */
    PathHistograms with(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes,
                        final ProfileHistograms.StateHistogram histogram) {
        final Map<Key, ProfileHistograms.StateHistogram> next = histograms.size() >= MAX_ENTRIES ? new HashMap<>()
            : new HashMap<>(histograms);
        next.put(new Key(profile, load, messageSizeBytes), histogram);
        return new PathHistograms(Map.copyOf(next));
    }

    /** @return a snapshot without the histograms of a replaced profile (by identity) */
    PathHistograms without(final Profile replaced) {
        final Map<Key, ProfileHistograms.StateHistogram> next = new HashMap<>(histograms);
        next.keySet().removeIf(key -> key.profile == replaced);
        return next.size() == histograms.size() ? this : new PathHistograms(Map.copyOf(next));
    }

    /** @return how many histograms are kept */
    int size() {
        return histograms.size();
    }
}
