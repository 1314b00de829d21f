/**
 * How components are launched and how their users learn that they serve: the registry
 * ({@link org.latencyserver.launch.Component}, one row per component in {@code components.tsv},
 * read by {@code ./latency} too), the ready-file contract ({@link org.latencyserver.launch.ReadyFile})
 * and the process kit ({@link org.latencyserver.launch.ProcessKit}) that the demo, the system tests
 * and the benchmark harnesses start children with. Depends on no component.
 */
package org.latencyserver.launch;
