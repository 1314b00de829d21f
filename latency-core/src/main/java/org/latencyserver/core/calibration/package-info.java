/**
 * Calibration and correction of served estimates: how well a served bound or mean held
 * for the round trips that followed it, and the corrections that make it hold under drift.
 *
 * <p>Everything here is pure and immutable: values in, new values out, no clocks or threads. The
 * server keeps one {@link org.latencyserver.core.calibration.StateKnowledge} per connection and load
 * state and feeds it with probe windows and measurements on its update thread.
 */
package org.latencyserver.core.calibration;
