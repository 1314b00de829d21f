/**
 * How components are launched and how their users learn that they serve: the registry
 * ({@link org.latencyserver.launch.Component}, one row per component in {@code components.tsv},
 * read by {@code ./latency} too), the ready-file contract ({@link org.latencyserver.launch.ReadyFile},
 * written by {@link org.latencyserver.launch.AtomicJsonFile}), what every component's launch and main
 * share ({@link org.latencyserver.launch.RunningComponent}, {@link org.latencyserver.launch.ContextChecks},
 * {@link org.latencyserver.launch.ServingLifecycle}, {@link org.latencyserver.launch.ComponentMain},
 * the {@code --ready-file} option {@link org.latencyserver.launch.ReadinessOptions})
 * and the process kit ({@link org.latencyserver.launch.ProcessKit}) that the demo, the system tests
 * and the benchmark harnesses start children with, in a work directory of their own that
 * {@link org.latencyserver.launch.TemporaryDirectory} takes away when the run ends. The agent runtime every loop of the product runs
 * on is in {@code org.latencyserver.launch.agent}. Depends on no component.
 */
package org.latencyserver.launch;
