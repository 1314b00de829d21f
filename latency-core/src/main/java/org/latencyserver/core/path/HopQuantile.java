package org.latencyserver.core.path;

import org.latencyserver.core.histogram.BoundResult;

/**
 * One hop's share of a {@link BoundMethod#UNION} bound: the hop, the percentage it was read at
 * ({@code 100 - (100 - x) / k}, shown rounded up to nine decimals; the bound itself uses the exact
 * share), and its bound there.
 *
 * <p>Immutable and thread-safe.
 *
 * @param hopName    the hop's name
 * @param hopPercent the percentage the hop was read at, in (0, 100]
 * @param bound      the hop's bound at {@code hopPercent}
 */
public record HopQuantile(String hopName, double hopPercent, BoundResult bound) {
}
