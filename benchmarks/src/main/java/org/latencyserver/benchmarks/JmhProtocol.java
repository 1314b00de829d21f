package org.latencyserver.benchmarks;

import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The run protocol the JMH benchmarks here share: one fork, three warm-up iterations of a second,
 * five measured iterations of a second, and one instance of the benchmark's state for all threads.
 * JMH's annotations are inherited, so a benchmark extends this and says only what it measures in
 * which mode and unit; one that needs longer measured iterations overrides {@link Measurement}.
 * Kept in one place so that the benchmarks' figures stay comparable when the protocol changes.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
abstract class JmhProtocol {
}
