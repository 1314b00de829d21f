package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.server.config.ConfigurationException;
import org.latencyserver.server.config.ConfigurationLoader;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;

/**
 * A table and a deterministic sequence of changes to it, for {@code StateStoreComparisonHarness}:
 * every store gets a fresh engine over the same configuration, prepared the same way, and the same
 * changes. The engine's clock is the workload's ({@link #nowNanos}), not the machine's.
 *
 * <ul>
 *   <li>{@link #testbed}: {@code examples/thesis-testbed.yaml} (six connections; {@code min_interval_millis: 0}),
 *       connections 4–6 measured in three load states with 1000-round-trip fine histograms, as the
 *       {@code StateWritesHarness} does through the server: their records are about 26 KB, the QoS 1/2
 *       ones under 1 KB. A change: a push within MEDIUM/MEDIUM ({@link #testbedChange}).</li>
 *   <li>{@link #scale}: {@code ServerScaleHarness}'s configuration of N QoS 1 connections on the
 *       thesis profile; a change: a random connection to a random CPU percentage ({@link #scaleChange}).</li>
 * </ul>
 *
 * <p>Thread-safety: confined to one thread.
 */
final class StoreWorkload {

    private static final long MILLI = 1_000_000L;
    private static final int[] MEASURED_CPU_PERCENTS = {10, 50, 90};

    private final String name;
    private final ServerConfiguration configuration;
    private final boolean measured;
    private final AtomicLong tickets = new AtomicLong();
    private long nowNanos = 1_000 * MILLI;

    private StoreWorkload(final String name, final ServerConfiguration configuration, final boolean measured) {
        this.name = name;
        this.configuration = configuration;
        this.measured = measured;
    }

    /** @return the thesis testbed's six connections, three of them measured */
    static StoreWorkload testbed(final Path work) throws IOException, ConfigurationException {
        final Path config = RepositoryFiles.testbedConfig(work);
        Files.writeString(config, Files.readString(config).replace("min_interval_millis: 5000", "min_interval_millis: 0"));
        return new StoreWorkload("testbed", ConfigurationLoader.load(config), true);
    }

    /** @return {@code connections} QoS 1 connections */
    static StoreWorkload scale(final Path work, final int connections) throws IOException, ConfigurationException {
        return new StoreWorkload("scale-" + connections, ConfigurationLoader.load(ServerScaleHarness.writeConfig(work, connections)),
            false);
    }

    String name() {
        return name;
    }

    /** @return how {@link #named} makes this workload again: {@code testbed} or the number of connections */
    String argument() {
        return measured ? "testbed" : Integer.toString(connections());
    }

    /**
     * @param argument {@code testbed} or a number of connections ({@link #argument})
     * @param work     where its configuration is written
     * @return that workload
     */
    static StoreWorkload named(final String argument, final Path work) throws IOException, ConfigurationException {
        return argument.equals("testbed") ? testbed(work) : scale(work, Integer.parseInt(argument));
    }

    int connections() {
        return configuration.connectionSpecs().size();
    }

    int maxHistogramBins() {
        return configuration.limits().maxHistogramBins();
    }

    /** @return monotonic time as the workload's engine sees it, advanced by each change */
    long nowNanos() {
        return nowNanos;
    }

    /** @return an engine over the configuration's table as a server starts it, nothing applied */
    UpdateEngine emptyEngine() {
        final List<ConnectionRow> rows = new ArrayList<>();
        for (final ConnectionSpec spec : configuration.connectionSpecs()) {
            rows.add(ConnectionRow.initial(spec, 1_700_000_000_000L));
        }
        return new UpdateEngine(new ConnectionTable(rows), configuration.profiles(), configuration.engine(), configuration.limits(),
            tickets::incrementAndGet, () -> 1_700_000_000_000L + nowNanos / MILLI);
    }

    /** @return an engine with the table every run starts from: every connection pushed once, the measured ones measured */
    UpdateEngine preparedEngine() {
        nowNanos = 1_000 * MILLI; // every store's run sees the same times and tickets
        tickets.set(0);
        final UpdateEngine engine = emptyEngine();
        if (!measured) {
            for (short ref = 1; ref <= connections(); ref++) {
                engine.applyMib(ref, new MibReading((short) 10, (short) 10, (short) 20), advance(MILLI));
            }
            return engine;
        }
        final Random random = new Random(12);
        for (final int cpu : MEASURED_CPU_PERCENTS) {
            for (short ref = 1; ref <= connections(); ref++) {
                engine.applyMib(ref, new MibReading((short) cpu, (short) cpu, (short) 20), advance(MILLI));
            }
            measureOpenRequests(engine, random);
        }
        return engine;
    }

    /** Answers the requests the engine opens until three (connections 4–6) are answered in this load state. */
    private void measureOpenRequests(final UpdateEngine engine, final Random random) {
        int answered = 0;
        for (int tick = 0; tick < 600 && answered < 3; tick++) {
            engine.tick(advance(100 * MILLI));
            for (final ConnectionRow row : engine.table().rows()) {
                if (row.pending() != null && engine.submitMeasurement(row.spec().indexRef(), row.pending().ticket(),
                    measurement(random), "store-comparison", advance(MILLI)).accepted()) {
                    answered++;
                }
            }
        }
        if (answered < 3) {
            throw new IllegalStateException("only " + answered + " of 3 measurements were asked for and accepted");
        }
    }

    /** A plausible 1000-round-trip result with a fine histogram, as an agent sends it. */
    private static Measurement measurement(final Random random) {
        final Histogram hdr = new Histogram(1, 60_000_000_000L, 3);
        for (int i = 0; i < 1000; i++) {
            hdr.recordValue(150_000 + (long) (Math.abs(random.nextGaussian()) * 80_000));
        }
        return new Measurement(LatencyHistogram.fromHdr(hdr), hdr.getTotalCount(), hdr.getMean() / 1e6, hdr.getStdDeviation() / 1e6,
            hdr.getMaxValue() / 1e6);
    }

    private long advance(final long nanos) {
        nowNanos += nanos;
        return nowNanos;
    }

    /**
     * The testbed's push mode: in step {@code step} every connection gets CPU 45–54 % (MEDIUM/MEDIUM)
     * and port 20–24 %: every push changes its row, none changes a load state.
     *
     * @return the connection changed
     */
    short testbedChange(final UpdateEngine engine, final long change) {
        final long step = change / connections();
        final short ref = (short) (1 + change % connections());
        final short cpu = (short) (45 + step % 10);
        engine.applyMib(ref, new MibReading(cpu, cpu, (short) (20 + step % 5)), advance(MILLI));
        return ref;
    }

    /** A random connection to a random CPU percentage (load states change, and with them estimates). */
    short scaleChange(final UpdateEngine engine, final Random random) {
        final short ref = (short) (1 + random.nextInt(connections()));
        final short cpu = (short) random.nextInt(101);
        engine.applyMib(ref, new MibReading(cpu, (short) 10, (short) 20), advance(MILLI));
        return ref;
    }

    /**
     * The kill test's change number {@code change}: connection {@code 1 + change % connections} gets
     * {@link #uniqueReading}.
     *
     * @return the connection changed
     */
    short uniqueChange(final UpdateEngine engine, final long change) {
        final short ref = uniqueChangeRef(change);
        engine.applyMib(ref, uniqueReading(change), advance(MILLI));
        return ref;
    }

    /** @return the connection the kill test's change number {@code change} changes */
    short uniqueChangeRef(final long change) {
        return (short) (1 + change % connections());
    }

    /**
     * The change of number {@code change} in the kill test: a reading no other change of the run has.
     *
     * @return the reading
     */
    static MibReading uniqueReading(final long change) {
        return new MibReading((short) (change % 100), (short) (change / 100 % 100), (short) (change / 10_000 % 100));
    }
}
