package org.latencyserver.server.engine;

import java.util.HashMap;
import java.util.Map;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateRefusedException;
import org.latencyserver.core.estimate.Qos;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.ConnectionLoadState;

/**
 * The profile estimates the update engine has computed, by what they depend on: the profile, the
 * QoS, the load state, the message size and the bound percentage ({@link Qos#fromProfile} is a pure
 * function of these). Thousands of QoS 1/2 connections share a handful of them, so a mass change of
 * state computes each once instead of once per connection, and the rows share one {@link Estimate}.
 *
 * <p>A profile replaced under the same name must be {@link #forget forgotten}. Refusals are not
 * kept (they are rare and carry the reason). At most {@value #MAX_ENTRIES} entries; when full it
 * starts afresh.
 *
 * <p>Not thread-safe: the update thread only.
 */
final class ProfileEstimates {

    /** Far above what a configuration needs (profiles × QoS × load states × message sizes × bounds). */
    static final int MAX_ENTRIES = 4096;

    private record Key(Profile profile, Qos qos, ConnectionLoadState load, int messageSizeBytes, double boundPercent) {

        // The profile by identity: hashing a whole profile's cells per lookup would cost more than the estimate.
        @Override
        public boolean equals(final Object other) {
            return other instanceof Key k && k.profile == profile && k.qos == qos && k.load.equals(load)
                && k.messageSizeBytes == messageSizeBytes && Double.compare(k.boundPercent, boundPercent) == 0;
        }

        @Override
        public int hashCode() {
            return ((System.identityHashCode(profile) * 31 + qos.hashCode()) * 31 + load.hashCode()) * 31
                + messageSizeBytes * 31 + Double.hashCode(boundPercent);
        }
    }

    private final Map<Key, Estimate> estimates = new HashMap<>();

    /**
     * @return {@code qos.fromProfile(profile, load, messageSizeBytes, boundPercent)}, computed once per key
     * @throws EstimateRefusedException as {@link Qos#fromProfile} (not kept)
     */
    Estimate estimate(final Qos qos, final Profile profile, final ConnectionLoadState load, final int messageSizeBytes,
                      final double boundPercent) throws EstimateRefusedException {
        final Key key = new Key(profile, qos, load, messageSizeBytes, boundPercent);
        final Estimate known = estimates.get(key);
        if (known != null) {
            return known;
        }
        final Estimate computed = qos.fromProfile(profile, load, messageSizeBytes, boundPercent);
        if (estimates.size() >= MAX_ENTRIES) {
            estimates.clear();
        }
        estimates.put(key, computed);
        return computed;
    }

    /** Drops every estimate of a profile that was replaced (by identity: the old object). */
    void forget(final Profile replaced) {
        estimates.keySet().removeIf(key -> key.profile == replaced);
    }

    /** @return how many estimates are kept */
    int size() {
        return estimates.size();
    }
}
