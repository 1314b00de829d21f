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
 * Every key, its default, the values it accepts, its unit and its meaning are
 * {@link org.latencyserver.server.config.ServerOption}'s: the loader reads by it, the settings records
 * take their defaults and range checks from it, and the operator guide's configuration table
 * ({@code docs/operator-guide.md}) is rendered from it by
 * {@link org.latencyserver.server.config.OptionsMarkdown} and checked against it by a unit test.
 * A profile named by a connection must also fit it ({@link org.latencyserver.server.config.ProfileFit}:
 * {@code load_profile} and a restart hold a profile to the same rules). Port 0 means any free port;
 * {@code server.metrics.enabled: false} turns the metrics endpoint off.
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
