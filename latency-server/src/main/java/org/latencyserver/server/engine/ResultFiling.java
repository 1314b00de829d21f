package org.latencyserver.server.engine;

import java.util.function.LongSupplier;
import org.latencyserver.server.table.ConnectionTable;

/**
 * What filing a measured result or a probe window uses, shared by {@link ResultIntake} and {@link ProbeLearning}: the
 * table they change, the plausibility checks, the serving policy, the band probes, the wall clock (display only),
 * where a changed row and a changed band go, and the trains that taught the shape models within the settle window. Used on the update thread only.
 *
 * @param table        the table the engine owns
 * @param plausibility what a submitted result or probe window may be
 * @param serving      what a row serves from what is known
 * @param bandProbes   the port bands' pooled probes
 * @param epochMillis  wall clock, ms since the epoch, for display only
 * @param publisher    publishes a changed row
 * @param bandListener hears of a port band whose pooled knowledge changed
 * @param settling     the trains that taught the shape models within the settle window
 */
record ResultFiling(ConnectionTable table, ResultPlausibility plausibility, ServingPolicy serving, BandProbesBook bandProbes,
                    LongSupplier epochMillis, MeasurementScheduler.RowPublisher publisher, BandListener bandListener,
                    SettlingShapeTeachers settling) {
}
