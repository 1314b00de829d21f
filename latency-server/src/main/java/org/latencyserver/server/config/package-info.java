/**
 * The server's configuration: one human-edited YAML file, read by
 * {@link org.latencyserver.server.config.ConfigurationLoader#load} into an immutable
 * {@link org.latencyserver.server.config.ServerConfiguration}.
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li>Keys are snake_case; a duration carries its unit in the key ({@code _millis}), a share
 *       {@code _percent}. Numbers are written in decimal ({@code 010} and {@code 0x1F} are refused,
 *       as YAML would read them as octal and hex); quoted numbers are text and refused.</li>
 *   <li>Every key not listed below is a fault, with the closest known key suggested. An absent key
 *       takes the default given here.</li>
 *   <li>Secrets are never written in the file: a key such as {@code community} or
 *       {@code auth_password} is refused; name an environment variable instead
 *       ({@code community_env}).</li>
 *   <li>Paths ({@code profiles}, {@code server.state_file}) are relative to the configuration
 *       file's directory.</li>
 *   <li>Every fault is reported at once as {@code file:line:column: key.path: reason}, with the
 *       bad value; list indexes in paths count from 0.</li>
 * </ul>
 *
 * <h2>Keys</h2>
 * <table>
 *   <caption>Configuration keys, defaults and checks</caption>
 *   <tr><th>key</th><th>default</th><th>meaning and checks</th></tr>
 *   <tr><td>{@code server.name}</td><td>LatencyServer</td><td>name registered in the CORBA Naming Service</td></tr>
 *   <tr><td>{@code server.poll_interval_millis}</td><td>100</td><td>SNMP poll period (10 Hz), 10..3600000</td></tr>
 *   <tr><td>{@code server.unknown_after_missed_polls}</td><td>5</td><td>missed polls in a row after which a source is UNKNOWN, 1..1000</td></tr>
 *   <tr><td>{@code server.state_file}</td><td>{@code <config name>.state.json}</td><td>where the table, estimates and measured histograms survive a restart</td></tr>
 *   <tr><td>{@code server.metrics.address}</td><td>127.0.0.1</td><td>where the Prometheus text endpoint listens</td></tr>
 *   <tr><td>{@code server.metrics.port}</td><td>9464</td><td>0..65535; 0 = no endpoint</td></tr>
 *   <tr><td>{@code server.operator_calls_enabled}</td><td>true</td><td>serve the operator calls {@code PutMibUpdates} and {@code RequestTableStatus} (false: refused with {@code NO_PERMISSION}); reads such as calibration are not affected</td></tr>
 *   <tr><td>{@code server.planner_calls_enabled}</td><td>true</td><td>serve {@code load_profile}</td></tr>
 *   <tr><td>{@code thresholds.cpu_low_upper_percent}</td><td>33</td><td>highest whole percent still LOW, 0..98, below the medium one</td></tr>
 *   <tr><td>{@code thresholds.cpu_medium_upper_percent}</td><td>66</td><td>highest whole percent still MEDIUM, 1..99</td></tr>
 *   <tr><td>{@code thresholds.cpu_hysteresis_band_percent}</td><td>2</td><td>band around each CPU boundary, ≥ 0 and narrower than the narrowest CPU band</td></tr>
 *   <tr><td>{@code thresholds.port_loaded_above_percent}</td><td>90</td><td>only 90: the IDL encodes LOADED as 91..100</td></tr>
 *   <tr><td>{@code thresholds.port_hysteresis_band_percent}</td><td>1</td><td>band around the port threshold, ≥ 0 and below 10</td></tr>
 *   <tr><td>{@code measurement.round_trips}</td><td>1000</td><td>round trips per measurement (QoS 3/4), 1..10000000</td></tr>
 *   <tr><td>{@code measurement.warmup_round_trips}</td><td>20</td><td>round trips run first and discarded, 0..1000000</td></tr>
 *   <tr><td>{@code measurement.timeout_millis}</td><td>30000</td><td>a request unanswered this long is re-issued with a new ticket</td></tr>
 *   <tr><td>{@code measurement.min_interval_millis}</td><td>5000</td><td>between two measurements of one connection; sooner ones are coalesced</td></tr>
 *   <tr><td>{@code measurement.budget_round_trips_per_second}</td><td>20000</td><td>round trips per second all measurements may spend together</td></tr>
 *   <tr><td>{@code measurement.max_concurrent_measurements}</td><td>2</td><td>measurements open at once</td></tr>
 *   <tr><td>{@code measurement.dwell_millis}</td><td>2 × poll_interval_millis</td><td>0..86400000; how long a new state must hold before an adaptive QoS 3/4 connection measures it</td></tr>
 *   <tr><td>{@code limits.max_result_millis}</td><td>60000</td><td>1..86400000; the largest mean or bound a result
 *       ({@code submit_measurement}, {@code UpdateResponse}) or probe report may carry, and the largest upper end of a
 *       thesis QoS 3 interval; a result must also be finite and &gt; 0</td></tr>
 *   <tr><td>{@code limits.plausibility_factor}</td><td>1000</td><td>(1, 10<sup>12</sup>]; how many times larger or smaller
 *       than the connection's last accepted result in its current load state (never measured there: its profile's estimate
 *       for the state) a result's mean (QoS 4 also its bound) or a probe window's mean may be. The default leaves room for
 *       a busy host 10–50 × slower than an idle one within one CPU band, times a profile measured on other hardware</td></tr>
 *   <tr><td>{@code limits.max_histogram_bins}</td><td>20000</td><td>100..10000000; the most bins a histogram may have
 *       (and values {@code batch_means_ms}), checked before it is built: in results, probe reports, every profile
 *       cell, and the state file when it is read (a state file over it is set aside as damaged). The agents'
 *       HdrHistograms (3 significant digits) have about 1000 buckets per doubling of the round trip</td></tr>
 *   <tr><td>{@code limits.max_profile_bytes}</td><td>67108864 (64 MiB)</td><td>1024..1073741824; the largest profile, in
 *       UTF-8 bytes, checked before it is parsed: files under {@code profiles}, {@code load_profile}, and the profiles a
 *       planner loaded before a restart</td></tr>
 *   <tr><td>{@code profiles[]}</td><td>none</td><td>profile files (JSON), each validated within {@code limits}; two files
 *       with one profile name are refused</td></tr>
 *   <tr><td>{@code nodes[].name}</td><td>required</td><td>unique node name</td></tr>
 *   <tr><td>{@code nodes[].node_id}</td><td>required</td><td>the IDL's client_node/peer_node, 1..32767, unique</td></tr>
 *   <tr><td>{@code nodes[].workstation_type}</td><td>required</td><td>as profiles name it; TAC-3 has code 3, TAC-4 code 4, others 5, 6, … in order of appearance</td></tr>
 *   <tr><td>{@code nodes[].mib_source}</td><td>push</td><td>{@code push} (PutMibUpdates) or {@code snmp}</td></tr>
 *   <tr><td>{@code nodes[].snmp}</td><td>—</td><td>required exactly when mib_source is snmp; see below</td></tr>
 *   <tr><td>{@code links[].name}</td><td>required</td><td>unique link (switch port) name</td></tr>
 *   <tr><td>{@code links[].mib_source}</td><td>push</td><td>as for nodes</td></tr>
 *   <tr><td>{@code links[].snmp}</td><td>—</td><td>as for nodes, plus {@code if_index} (required, ≥ 1) and {@code speed_mbps} (optional; else ifHighSpeed)</td></tr>
 *   <tr><td>{@code connections[].index_ref}</td><td>required</td><td>1..32767, unique</td></tr>
 *   <tr><td>{@code connections[].client}, {@code .peer}</td><td>required</td><td>names of two different nodes</td></tr>
 *   <tr><td>{@code connections[].link}</td><td>none</td><td>a link name; without one the port is always NORMAL</td></tr>
 *   <tr><td>{@code connections[].message_size_bytes}</td><td>required</td><td>1..32767</td></tr>
 *   <tr><td>{@code connections[].qos}</td><td>required</td><td>1 profile average, 2 profile bound, 3 measured average, 4 measured bound</td></tr>
 *   <tr><td>{@code connections[].profile}</td><td>none</td><td>a loaded profile's name; required for QoS 1/2 (for QoS 3/4 optional: the fallback in a load state never measured); must be for the client's workstation type; for QoS 2 it must have histograms ({@link org.latencyserver.server.config.ProfileFit}: {@code load_profile} and a restart hold a profile to the same rules)</td></tr>
 *   <tr><td>{@code connections[].bound_percent}</td><td>—</td><td>QoS 2/4: required, in (0, 100]; QoS 1/3: refused</td></tr>
 *   <tr><td>{@code connections[].calibration}</td><td>adaptive</td><td>{@code adaptive}: serve values corrected so they hold for the messages that follow (probes, memory per load state, dwell, drift re-measurement); {@code thesis}: the thesis's values and behaviour unchanged</td></tr>
 *   <tr><td>{@code connections[].probe_rate_per_second}</td><td>10</td><td>0..1000 round trips/s of light probing by the client agent (in trains, see the operator guide); 0 = off; all connections' rates together at most half of {@code measurement.budget_round_trips_per_second}, which they are taken from</td></tr>
 * </table>
 *
 * <h2>The {@code snmp} block</h2>
 * <table>
 *   <caption>Keys of a node's or link's snmp block</caption>
 *   <tr><th>key</th><th>default</th><th>meaning and checks</th></tr>
 *   <tr><td>{@code address}</td><td>required</td><td>{@code udp:HOST/PORT} or {@code tcp:HOST/PORT}</td></tr>
 *   <tr><td>{@code version}</td><td>required</td><td>{@code v2c} or {@code v3}</td></tr>
 *   <tr><td>{@code community_env}</td><td>v2c: required</td><td>environment variable holding the community; refused for v3</td></tr>
 *   <tr><td>{@code user}</td><td>v3: required</td><td>USM user; refused for v2c, as are all v3 keys</td></tr>
 *   <tr><td>{@code auth_protocol}</td><td>SHA</td><td>{@code SHA} or {@code SHA256}</td></tr>
 *   <tr><td>{@code auth_password_env}</td><td>v3: required</td><td>environment variable holding the authentication passphrase</td></tr>
 *   <tr><td>{@code priv_protocol}</td><td>AES</td><td>{@code AES} or {@code AES256}</td></tr>
 *   <tr><td>{@code priv_password_env}</td><td>v3: required</td><td>environment variable holding the privacy passphrase (v3 is always authPriv)</td></tr>
 *   <tr><td>{@code cpu_source}</td><td>ucd-raw</td><td>nodes only: {@code ucd-raw} (UCD-SNMP-MIB ssCpuRaw*) or {@code hr-processor-load}</td></tr>
 *   <tr><td>{@code timeout_millis}</td><td>300</td><td>per request, 1..60000</td></tr>
 *   <tr><td>{@code retries}</td><td>0</td><td>0..10</td></tr>
 *   <tr><td>{@code local_address}</td><td>loopback or wildcard</td><td>the IP address of this machine the poller sends this agent's requests from (a socket per distinct address); a UDP socket must bind to it here, a loopback one only for a loopback agent, and of the agent's IP version unless 0.0.0.0. Absent: 127.0.0.1 when every polled agent without one is on loopback, else 0.0.0.0 (every interface)</td></tr>
 *   <tr><td>{@code if_index}, {@code speed_mbps}</td><td>—</td><td>links only, see above</td></tr>
 * </table>
 */
package org.latencyserver.server.config;
