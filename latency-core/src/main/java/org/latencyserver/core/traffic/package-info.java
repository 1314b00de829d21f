/**
 * How an application sends: the shape of its traffic (spacing, burst length, pause, call), the
 * documented family of shapes a connection's estimate must hold for when no shape is declared, and
 * the classes of shapes calibration is kept for.
 *
 * <p>Everything here is pure and immutable: no clocks, no threads; a random shape is drawn from a
 * generator the caller owns.
 */
package org.latencyserver.core.traffic;
