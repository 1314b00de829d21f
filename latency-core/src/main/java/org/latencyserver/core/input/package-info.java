/**
 * Reading validated input — configuration files, scenarios, profiles, state files — with every
 * fault reported at once and each pointing at its place.
 *
 * <p>{@link org.latencyserver.core.input.InputNode} parses YAML or JSON through Jackson's streaming
 * parsers into a tree that keeps each value's 1-based line and column and the text as written;
 * {@link org.latencyserver.core.input.InputMapping} offers the common checks over one mapping;
 * {@link org.latencyserver.core.input.InputFaults} collects
 * {@link org.latencyserver.core.input.InputFault}s, which print as
 * {@code source:line:column: path: reason}; {@link org.latencyserver.core.input.InputFaultsException}
 * carries them all when an input is refused.
 */
package org.latencyserver.core.input;
