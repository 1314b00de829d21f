package org.latencyserver.server.engine;

import java.util.HashMap;
import java.util.Map;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateRefusedException;
import org.latencyserver.core.estimate.ProfilePath;
import org.latencyserver.core.estimate.Qos;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.server.table.ComposedBound;

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

    /**
     * A profile estimate, with both methods' values when it is a composed path's bound.
     *
     * @param estimate the thesis's estimate
     * @param composed for a QoS 2 bound of a path with two or more loaded ports, both methods' values; else null
     */
    record Entry(Estimate estimate, ComposedBound composed) {
    }

    private record Key(Profile profile, Qos qos, ConnectionLoadState load, int messageSizeBytes, double boundPercent,
                       BoundMethod method) {

        // The profile by identity: hashing a whole profile's cells per lookup would cost more than the estimate.
        @Override
        public boolean equals(final Object other) {
            return other instanceof Key k && k.profile == profile && k.qos == qos && k.load.equals(load)
                && k.messageSizeBytes == messageSizeBytes && Double.compare(k.boundPercent, boundPercent) == 0 && k.method == method;
        }

        @Override
        public int hashCode() {
            return ((System.identityHashCode(profile) * 31 + qos.hashCode()) * 31 + load.hashCode()) * 31
                + messageSizeBytes * 31 + Double.hashCode(boundPercent) + method.hashCode();
        }
    }

    private final Map<Key, Entry> estimates = new HashMap<>();

    /**
     * @param method how a path with two or more loaded ports has its bound composed
     * @return {@code qos.fromProfile(profile, load, messageSizeBytes, boundPercent, method)}, computed once per key, with
     *         both methods' values for a composed bound
     * @throws EstimateRefusedException as {@link Qos#fromProfile} (not kept)
     */
    Entry estimate(final Qos qos, final Profile profile, final ConnectionLoadState load, final int messageSizeBytes,
                   final double boundPercent, final BoundMethod method) throws EstimateRefusedException {
        final Key key = new Key(profile, qos, load, messageSizeBytes, boundPercent, method);
        final Entry known = estimates.get(key);
        if (known != null) {
            return known;
        }
        final Entry computed;
        if (qos.bound() && ProfilePath.isComposed(load)) {
            final ProfilePath.Bounds bounds = ProfilePath.bounds(profile, load, messageSizeBytes, boundPercent);
            final Estimate estimate = ProfilePath.boundEstimate(bounds, method);
            final BoundMethod served = method == BoundMethod.INDEPENDENT && bounds.independent() != null
                ? BoundMethod.INDEPENDENT : BoundMethod.UNION;
            computed = new Entry(estimate, new ComposedBound(served, bounds.union().boundMillis(),
                bounds.independent() == null ? 0.0 : bounds.independent().boundMillis()));
        } else {
            computed = new Entry(qos.fromProfile(profile, load, messageSizeBytes, boundPercent, method), null);
        }
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
