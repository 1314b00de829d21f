/**
 * The end-to-end latency of a path that crosses several switch ports (hops), composed from each
 * hop's latency histogram: the mean as the sum of the hops' means, and the x % bound by one of two
 * labelled {@linkplain org.latencyserver.core.path.BoundMethod methods}.
 *
 * <ul>
 *   <li>{@link org.latencyserver.core.path.BoundMethod#UNION}: sound whatever the dependence between
 *       hops. Each of the k hops is read at its {@code 1 - (1 - x) / k} quantile and these are summed;
 *       the path exceeds the sum only if some hop exceeds its own quantile, which happens with
 *       probability at most {@code k * (1 - x) / k = 1 - x}.</li>
 *   <li>{@link org.latencyserver.core.path.BoundMethod#INDEPENDENT}: tighter, but only if the hops'
 *       delays are independent: the x % quantile of the convolution of the hops' histograms. When hops
 *       are loaded together (the same burst crossing every switch) it can under-cover.</li>
 * </ul>
 *
 * <p><strong>Adding the per-hop x % quantiles is not a bound in general, and nothing here does
 * it.</strong> It is exact only when the hops move in lockstep (comonotone); for independent hops it
 * is often conservative, but not always: hops that are each fast with a rare spike below
 * {@code 1 - x} have a per-hop x % quantile that ignores the spike, while the path meets a spike on
 * some hop far more often than {@code 1 - x}.
 *
 * <p>All statements are about the hops' histograms as given (their empirical distributions);
 * the sampling error of each histogram is not accounted for here. Binning errs high, never low: a
 * sample is taken at its bin's upper edge, as the thesis's bound does, and each result says by how
 * much binning may have raised it ({@link org.latencyserver.core.path.PathBound#slackNanos()}).
 *
 * <p>Everything here is pure and immutable: histograms in, values out, no clocks or threads.
 */
package org.latencyserver.core.path;
