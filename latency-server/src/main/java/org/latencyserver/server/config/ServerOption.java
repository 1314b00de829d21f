package org.latencyserver.server.config;

import static org.latencyserver.server.config.OptionEntries.checkDefault;
import static org.latencyserver.server.config.OptionEntries.described;
import static org.latencyserver.server.config.OptionEntries.interval;
import static org.latencyserver.server.config.OptionEntries.none;
import static org.latencyserver.server.config.OptionEntries.range;
import static org.latencyserver.server.config.OptionEntries.required;
import static org.latencyserver.server.config.OptionEntries.text;
import static org.latencyserver.server.config.OptionEntries.words;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.orb.TlsStores;
import org.latencyserver.server.engine.InputLimits;
import org.latencyserver.server.transport.ConnectionLimits;

/**
 * Every key of the server's YAML configuration, with its default, the values it accepts, its unit
 * and one line of documentation: the one table the {@link ConfigurationLoader} takes its keys,
 * defaults and range checks from, the settings records take their defaults from, and the operator
 * guide's configuration table is checked against ({@link OptionsMarkdown}).
 *
 * <p>A key path names list items with {@code []}: {@code connections[].qos} is the {@code qos} of
 * every item of {@code connections}. The keys of a node's or link's {@code snmp} block depend on
 * the SNMP version and are {@link SnmpBlockReader}'s.
 *
 * <p>The table holds literals, never other configuration classes' constants: the records
 * ({@link ServerSettings}, {@link Thresholds}, {@link MeasurementSettings}) build their defaults
 * from it, so referring back to them would make their initialisation circular. The input limits'
 * defaults are {@link InputLimits}'s, which the engine package owns.
 *
 * <p>Immutable and thread-safe.
 */
public enum ServerOption {

    SERVER("server", new OptionValues.Block(), none(), "", "how the server names itself, polls, persists and serves"),
    SERVER_NAME("server.name", text("a name"), "LatencyServer", "", "name registered in the CORBA Naming Service"),
    SERVER_PARTITION("server.partition", text("1-64 letters, digits, _ or -"), described("none: the only server"), "",
        "the partition it owns: registers as <server.name>/<partition> and binds <server.name>/by-client/<node> for its client nodes"),
    SERVER_INDEX_REF_SCOPE("server.index_ref_scope", words("deployment", "partition"), "deployment", "",
        "with server.partition: where an index_ref is unique — deployment: across every partition (their ranges may not"
            + " overlap; 32,767 connections in all), partition: within its partition only (up to 32,767 each; a client"
            + " reaches its own through by-client/<node>); every partition of a deployment says the same"),
    SERVER_POLL_INTERVAL_MILLIS("server.poll_interval_millis", range(10, 3_600_000), 100L, "ms",
        "SNMP poll period (100: the thesis's 10 Hz)"),
    SERVER_UNKNOWN_AFTER_MISSED_POLLS("server.unknown_after_missed_polls", range(1, 1000), 5L, "polls",
        "a polled source that missed this many polls in a row is UNKNOWN until it answers again"),
    SERVER_STATE_FILE("server.state_file", text("a path, relative to the configuration file"),
        described("`<config name>.state.json` beside the configuration"), "",
        "where the table, last estimates and measured histograms survive a restart"),
    SERVER_METRICS("server.metrics", new OptionValues.Block(), described("enabled, 127.0.0.1:9464"), "",
        "the Prometheus text endpoint"),
    SERVER_METRICS_ENABLED("server.metrics.enabled", new OptionValues.Flag(), true, "",
        "serve the endpoint; false: no endpoint (the only way to turn it off)"),
    SERVER_METRICS_ADDRESS("server.metrics.address", text("an IP address or host name"), "127.0.0.1", "",
        "address the endpoint listens on (the default: loopback only)"),
    SERVER_METRICS_PORT("server.metrics.port", range(0, 65_535), 9464L, "",
        "TCP port; 0 = any free port (logged at start), and then enabled must be written too"),
    SERVER_OPERATOR_CALLS_ENABLED("server.operator_calls_enabled", new OptionValues.Flag(), true, "",
        "serve PutMibUpdates and RequestTableStatus (false: refused with NO_PERMISSION; reads are not affected)"),
    SERVER_PLANNER_CALLS_ENABLED("server.planner_calls_enabled", new OptionValues.Flag(), true, "",
        "serve load_profile (false: refused with NO_PERMISSION)"),
    SERVER_STANDBY("server.standby", new OptionValues.Block(), described("none: no standby"), "",
        "a hot standby: two servers with the same configuration, each naming the other; the first up is primary, the"
            + " other keeps a live copy of its table and takes over when it leaves"),
    SERVER_STANDBY_LISTEN("server.standby.listen", text("host:port"), required(), "",
        "this server's replication address (JGroups over TCP); an address of this host, loopback or a private network"),
    SERVER_STANDBY_PEER("server.standby.peer", text("host:port"), required(), "",
        "the other server's server.standby.listen"),
    SERVER_STANDBY_ACK_TIMEOUT_MILLIS("server.standby.ack_timeout_millis", range(100, 60_000), 2000L, "ms",
        "how long a write waits for the standby to hold it; past it the write is answered unprotected (counted)"),
    SERVER_STANDBY_LEASE_MILLIS("server.standby.lease_millis", range(500, 600_000), 3000L, "ms",
        "a primary that has not confirmed its name in the naming service for this long stops serving (writes refused"
            + " with TRANSIENT, then requests discarded) and rejoins as standby; a standby that binds the name waits"
            + " 1.1 times this before it serves"),

    THRESHOLDS("thresholds", new OptionValues.Block(), none(), "", "where the load states begin (thesis section 4.2.4)"),
    THRESHOLDS_CPU_LOW_UPPER_PERCENT("thresholds.cpu_low_upper_percent", range(0, 98), 33L, "%",
        "highest whole percent still LOW; below cpu_medium_upper_percent"),
    THRESHOLDS_CPU_MEDIUM_UPPER_PERCENT("thresholds.cpu_medium_upper_percent", range(1, 99), 66L, "%",
        "highest whole percent still MEDIUM; above it HIGH"),
    THRESHOLDS_CPU_HYSTERESIS_BAND_PERCENT("thresholds.cpu_hysteresis_band_percent", interval(0, false, 100), 2.0,
        "points", "band around each CPU boundary, narrower than the narrowest CPU band; 0 = no hysteresis"),
    THRESHOLDS_PORT_LOADED_ABOVE_PERCENT("thresholds.port_loaded_above_percent", range(90, 90), 90L, "%",
        "a switch port is LOADED above this; fixed by the IDL's port_state encoding (LOADED is 91..100)"),
    THRESHOLDS_PORT_HYSTERESIS_BAND_PERCENT("thresholds.port_hysteresis_band_percent", interval(0, false, 100), 1.0,
        "points", "band around the port threshold (and, with bands, around each band edge), below 10"),
    THRESHOLDS_PORT_STATES("thresholds.port_states", words("thesis", "bands"), "thesis", "",
        "thesis: every whole percent above 90 is a state (section 4.2.4); bands: one state per loaded band, so a real"
            + " port jittering near its rate does not change state every poll"),
    THRESHOLDS_PORT_BAND_UPPER_PERCENTS("thresholds.port_band_upper_percents", new OptionValues.Items("whole percents 91..99, ascending"),
        described("[95, 98]"), "%", "with port_states: bands, the bands' upper edges below 100: [95, 98] makes 91–95, 96–98"
            + " and 99–100 %; a band's port_state code is its upper edge"),

    MEASUREMENT("measurement", new OptionValues.Block(), none(), "", "how QoS 3 and 4 connections are measured"),
    MEASUREMENT_ROUND_TRIPS("measurement.round_trips", range(1, 10_000_000), 1000L, "round trips",
        "round trips one measurement asks for (the thesis's 1000)"),
    MEASUREMENT_WARMUP_ROUND_TRIPS("measurement.warmup_round_trips", range(0, 1_000_000), 20L, "round trips",
        "round trips run first and discarded (the thesis's first samples took 200 ms)"),
    MEASUREMENT_TIMEOUT_MILLIS("measurement.timeout_millis", range(1, 86_400_000), 30_000L, "ms",
        "a request unanswered this long is re-issued with a new ticket"),
    MEASUREMENT_MIN_INTERVAL_MILLIS("measurement.min_interval_millis", range(0, 86_400_000), 5_000L, "ms",
        "between two measurements of one connection; one due sooner is coalesced, never dropped"),
    MEASUREMENT_BUDGET_ROUND_TRIPS_PER_SECOND("measurement.budget_round_trips_per_second", range(1, 10_000_000), 20_000L,
        "round trips/s", "what all measurements and probes together may spend"),
    MEASUREMENT_MAX_CONCURRENT_MEASUREMENTS("measurement.max_concurrent_measurements", range(1, 10_000), 2L,
        "measurements", "measurements open at once across all connections"),
    MEASUREMENT_MAX_OPEN_PER_CLIENT("measurement.max_open_per_client", range(1, 10_000), 1L, "measurements",
        "requests open at once for one client workstation: its client agent measures them one after another, so another"
            + " one would wait there while its timeout_millis ran; here it waits, due, and opens when one closes"),
    MEASUREMENT_PATH_SHARE_PERCENT("measurement.path_share_percent", interval(0, true, 100), 5.0, "%",
        "of a link's configured speed_mbps the measurements may take together, warm-up included: their round trips are"
            + " paced to stay within it, split among max_concurrent_measurements (links without speed_mbps are not paced)"),
    MEASUREMENT_TIME_BUDGET_MILLIS("measurement.time_budget_millis", range(0, 86_400_000), 10_000L, "ms",
        "a measurement's run (its warm-up round trips included, the agent's JIT warm-up before it not) stops this long after"
            + " it began and submits what it recorded (at least 100 round trips), so a slow path gives fewer round trips"
            + " rather than none; at most 3/4 of timeout_millis; 0 = no bound"),
    MEASUREMENT_SETTLE_MILLIS("measurement.settle_millis", range(0, 86_400_000), described("2 × server.poll_interval_millis"),
        "ms", "a result whose load state changes this soon after it arrived is taken back from that state (counted): SNMP"
            + " counters lag the load by up to an agent's refresh (net-snmp: IF-MIB ~3 s, CPU ~5 s); 0 = never"),
    MEASUREMENT_DWELL_MILLIS("measurement.dwell_millis", range(0, 86_400_000), described("2 × server.poll_interval_millis"),
        "ms", "how long a new load state must hold before an adaptive QoS 3/4 connection measures it"),

    LIMITS("limits", new OptionValues.Block(), none(), "", "what a result, probe report or profile may be, and how many"
        + " subscriptions a caller may hold"),
    LIMITS_MAX_RESULT_MILLIS("limits.max_result_millis", range(1, 86_400_000), InputLimits.DEFAULT.maxResultMillis(), "ms",
        "the largest mean or bound a result or probe report may carry"),
    LIMITS_PLAUSIBILITY_FACTOR("limits.plausibility_factor", interval(1, true, 1e12), InputLimits.DEFAULT.plausibilityFactor(),
        "×", "how many times larger or smaller than the connection's last result in its load state (else its profile's) a result may be"),
    // Fewer than the thesis's 100 bins would refuse every measured histogram.
    LIMITS_MAX_HISTOGRAM_BINS("limits.max_histogram_bins", range(100, 10_000_000), (long) InputLimits.DEFAULT.maxHistogramBins(),
        "bins", "the most bins a histogram may have (results, probes, profiles, the state file)"),
    LIMITS_MAX_PROFILE_BYTES("limits.max_profile_bytes", range(1024, 1L << 30), InputLimits.DEFAULT.maxProfileBytes(), "bytes",
        "the largest profile, checked before it is parsed (64 MiB by default)"),
    LIMITS_MAX_SUBSCRIPTIONS_PER_CALLER("limits.max_subscriptions_per_caller", range(1, 1000),
        (long) InputLimits.DEFAULT.maxSubscriptionsPerCaller(), "subscriptions",
        "subscriptions (subscribe and subscribe_measurements together) one caller may hold: a TLS certificate's subject,"
            + " else one connection; beyond it subscribe is refused with InvalidArgument"),
    LIMITS_MAX_GIOP_MESSAGE_BYTES("limits.max_giop_message_bytes", range(65_536, 1L << 32),
        described("the largest legitimate call: max(24 × max_histogram_bins, max_profile_bytes) + 65,536"), "bytes",
        "the largest GIOP message read, checked from its header before the body is read: a larger one closes its"
            + " connection (counted, logged); at least the default"),
    LIMITS_IDLE_CONNECTION_TIMEOUT_MILLIS("limits.idle_connection_timeout_millis", range(0, Integer.MAX_VALUE),
        ConnectionLimits.DEFAULT_IDLE_CONNECTION_TIMEOUT_MILLIS, "ms",
        "a connection with no call in progress and nothing arriving this long is closed (a JacORB caller reconnects on its"
            + " next call); also bounds a message that stops arriving halfway; 0 = never"),
    LIMITS_MAX_CONNECTIONS("limits.max_connections", range(1, 1_000_000), (long) ConnectionLimits.DEFAULT_MAX_CONNECTIONS,
        "connections", "IIOP connections kept at once; one more is closed as soon as it is accepted (its caller sees COMM_FAILURE)"),

    PROFILES("profiles", new OptionValues.Items("paths"), described("none"), "",
        "profile files (JSON), relative to the configuration file, each read within limits; two with one name are refused"),

    NODES("nodes", new OptionValues.Items("mappings"), required(), "", "the workstations the connections join"),
    NODES_NAME("nodes[].name", text("a name"), required(), "", "unique; connections name their ends by it"),
    NODES_NODE_ID("nodes[].node_id", range(1, Short.MAX_VALUE), required(), "", "the IDL's client_node/peer_node, unique"),
    NODES_WORKSTATION_TYPE("nodes[].workstation_type", text("a type, e.g. TAC-4"), required(), "",
        "as profiles name it; TAC-3 has IDL code 3, TAC-4 code 4, others 5, 6, ... in order of appearance"),
    NODES_MIB_SOURCE("nodes[].mib_source", words("push", "snmp"), "push", "",
        "where its CPU utilisation comes from: PutMibUpdates (push) or the SNMP poller"),
    NODES_SNMP("nodes[].snmp", new OptionValues.Block(), described("none"), "",
        "its SNMP agent: required exactly when mib_source is snmp, refused otherwise"),
    NODES_SNMP_ADDRESS("nodes[].snmp.address", text("udp:HOST/PORT or tcp:HOST/PORT"), required(), "", "the agent"),
    NODES_SNMP_VERSION("nodes[].snmp.version", words("v2c", "v3"), required(), "", "v2c (a community) or v3 (a USM user, authPriv)"),
    NODES_SNMP_COMMUNITY_ENV("nodes[].snmp.community_env", text("an environment variable's name"), described("required for v2c"),
        "", "the variable that holds the community (never the community itself); refused for v3"),
    NODES_SNMP_USER("nodes[].snmp.user", text("a USM user name"), described("required for v3"), "", "the v3 user; refused for v2c"),
    NODES_SNMP_AUTH_PROTOCOL("nodes[].snmp.auth_protocol", words("sha", "sha256"), "sha", "", "v3 authentication (HMAC-SHA-96, HMAC-SHA-256)"),
    NODES_SNMP_AUTH_PASSWORD_ENV("nodes[].snmp.auth_password_env", text("an environment variable's name"),
        described("required for v3"), "", "the variable that holds the authentication passphrase"),
    NODES_SNMP_PRIV_PROTOCOL("nodes[].snmp.priv_protocol", words("aes", "aes256"), "aes", "", "v3 privacy (AES-128, AES-256)"),
    NODES_SNMP_PRIV_PASSWORD_ENV("nodes[].snmp.priv_password_env", text("an environment variable's name"),
        described("required for v3"), "", "the variable that holds the privacy passphrase"),
    NODES_SNMP_LOCAL_ADDRESS("nodes[].snmp.local_address", text("an IP address of this host"),
        described("loopback when every polled agent is on loopback, else every interface"), "", "the address the poller sends from"),
    NODES_SNMP_TIMEOUT_MILLIS("nodes[].snmp.timeout_millis", range(1, 60_000), SnmpAccess.DEFAULT_TIMEOUT_MILLIS, "ms", "how long a request waits for its answer"),
    NODES_SNMP_RETRIES("nodes[].snmp.retries", range(0, 10), (long) SnmpAccess.DEFAULT_RETRIES, "", "resends of a request before the poll counts as missed"),
    NODES_SNMP_CPU_SOURCE("nodes[].snmp.cpu_source", words("ucd-raw", "hr-processor-load"), "ucd-raw", "",
        "UCD-SNMP-MIB raw CPU tick counters, or HOST-RESOURCES-MIB hrProcessorLoad (nodes only)"),

    LINKS("links", new OptionValues.Items("mappings"), described("none"), "", "the switch ports between workstations"),
    LINKS_NAME("links[].name", text("a name"), required(), "", "unique; connections refer to it by link"),
    LINKS_MIB_SOURCE("links[].mib_source", words("push", "snmp"), "push", "", "where its utilisation comes from"),
    LINKS_SNMP("links[].snmp", new OptionValues.Block(), described("none"), "",
        "its SNMP agent, with the keys of nodes[].snmp but cpu_source, and these three"),
    LINKS_SNMP_IF_INDEX("links[].snmp.if_index", range(1, Integer.MAX_VALUE), required(), "", "the switch port's IF-MIB ifIndex"),
    LINKS_SNMP_SPEED_MBPS("links[].snmp.speed_mbps", range(1, 10_000_000), described("the agent's ifHighSpeed"), "Mbit/s",
        "the port's speed, where the agent's is not the bottleneck's"),
    LINKS_SNMP_DISCARDS_OID("links[].snmp.discards_oid", text("a numeric OID"), described("none"), "",
        "a counter of the packets the port drops (e.g. IF-MIB ifOutDiscards of the port's if_index): at its rate and dropping, it is SATURATED"),

    SECURITY("security", new OptionValues.Block(), described("legacy open mode"), "",
        "IIOP over TLS and who may write; without it every call is open (warned at start)"),
    SECURITY_PLAIN_IIOP("security.plain_iiop", words("read-only", "all"), described("all without tls, read-only with it"), "",
        "what callers over plain IIOP may do: reads only, or every call (the legacy open mode)"),
    SECURITY_TLS("security.tls", new OptionValues.Block(), described("none"), "", "the IIOP/TLS listener"),
    SECURITY_TLS_PORT("security.tls.port", range(0, 65_535), 0L, "", "TLS port; 0 = any free port"),
    SECURITY_TLS_KEYSTORE("security.tls.keystore", text("a path"), required(), "",
        "the server's certificate and key (PKCS#12), relative to the configuration file"),
    SECURITY_TLS_TRUSTSTORE("security.tls.truststore", text("a path"), required(), "",
        "the certificate authorities of the clients (PKCS#12)"),
    SECURITY_TLS_PASSWORD_ENV("security.tls.password_env", text("a variable name"), TlsStores.DEFAULT_PASSWORD_ENV, "",
        "environment variable holding both stores' password"),
    SECURITY_TLS_REVOKED_SERIALS_FILE("security.tls.revoked_serials_file", text("a path"), described("none"), "",
        "revoked client certificates: one hexadecimal serial per line, # comments (./latency certs --revoke); re-read when changed"),
    SECURITY_PRINCIPALS("security.principals", new OptionValues.Items("mappings"), described("none"), "",
        "the roles of client certificates"),
    SECURITY_PRINCIPALS_SUBJECT("security.principals[].subject", text("an X.500 name"), required(), "",
        "the certificate subject, e.g. CN=ws1,OU=agent,O=Latency Server; unique"),
    SECURITY_PRINCIPALS_ROLES("security.principals[].roles", new OptionValues.Items("agent, operator, planner"), required(), "",
        "what the subject may do"),
    SECURITY_PRINCIPALS_NODE("security.principals[].node", text("a node's name"), described("none"), "",
        "an agent's own workstation: required for an agent, refused otherwise"),

    CONNECTIONS("connections", new OptionValues.Items("mappings"), required(), "",
        "the message paths the server estimates (an empty list is written [])"),
    CONNECTIONS_INDEX_REF("connections[].index_ref", range(1, Short.MAX_VALUE), required(), "",
        "the connection's number in the IDL, unique"),
    CONNECTIONS_CLIENT("connections[].client", text("a node's name"), required(), "", "the client workstation"),
    CONNECTIONS_PEER("connections[].peer", text("a node's name"), required(), "", "the peer workstation, not the client"),
    CONNECTIONS_LINK("connections[].link", text("a link's name"), described("none"), "",
        "the switch port between them; without one the port is always NORMAL"),
    CONNECTIONS_LINKS("connections[].links", new OptionValues.Items("links' names, in path order"), described("none"), "",
        "instead of link: the switch ports a path through several switches crosses, in order, at most 8, each polled"
            + " (mib_source: snmp); the thesis's port_state is the worst hop"),
    CONNECTIONS_PATH_BOUND("connections[].path_bound", words("union", "independent"), "union", "",
        "how the QoS 2 bound of a path with two or more loaded hops is composed: union holds whatever the hops'"
            + " dependence; independent is tighter and assumes independent hops"),
    CONNECTIONS_MESSAGE_SIZE_BYTES("connections[].message_size_bytes", range(1, Short.MAX_VALUE), required(), "bytes",
        "the message size (the IDL's short)"),
    CONNECTIONS_QOS("connections[].qos", range(1, 4), required(), "",
        "1 profile average, 2 profile bound, 3 measured average, 4 measured bound"),
    CONNECTIONS_PROFILE("connections[].profile", text("a loaded profile's name"), described("none"), "",
        "required for QoS 1/2, for QoS 3/4 the fallback in a state never measured; for the client's workstation type"),
    CONNECTIONS_BOUND_PERCENT("connections[].bound_percent", interval(0, true, 100), described("none"), "%",
        "the share of messages the bound covers: required for QoS 2/4, refused for QoS 1/3"),
    CONNECTIONS_CALIBRATION("connections[].calibration", words("adaptive", "thesis"), "adaptive", "",
        "adaptive: serve values corrected so they hold for the messages that follow; thesis: the thesis's values"),
    CONNECTIONS_PROBE_RATE_PER_SECOND("connections[].probe_rate_per_second", interval(0, false, 1000), 10.0, "round trips/s",
        "light probing of the path by its client agent, 0 = off; all together at most half the measurement budget"),
    CONNECTIONS_TRAFFIC("connections[].traffic", new OptionValues.Block(),
        described("none: probes draw shapes from the default family (spacing 0.5–10 ms, bursts 1–100, octets or arrays)"), "",
        "how the connection's application sends; probes and measurements reproduce it; all four keys are required"),
    CONNECTIONS_TRAFFIC_SPACING_MICROS("connections[].traffic.spacing_micros", range(TrafficShape.MIN_SPACING_MICROS, TrafficShape.MAX_SPACING_MICROS), required(), "µs",
        "start-to-start spacing of a burst's messages"),
    CONNECTIONS_TRAFFIC_BURST_ROUND_TRIPS("connections[].traffic.burst_round_trips", range(1, TrafficShape.MAX_BURST_ROUND_TRIPS), required(), "round trips",
        "messages per burst (1: a steady stream at the pause)"),
    CONNECTIONS_TRAFFIC_PAUSE_MILLIS("connections[].traffic.pause_millis", range(0, TrafficShape.MAX_PAUSE_MILLIS), required(), "ms",
        "pause after a burst (probes lengthen it where probe_rate_per_second needs)"),
    CONNECTIONS_TRAFFIC_CALL("connections[].traffic.call", words("octets", "arrays"), required(), "",
        "octets: EchoPeer.echo with an octet sequence; arrays: the thesis's fm1 array calls");

    private final String path;
    private final OptionValues values;
    private final Object defaultValue;
    private final String defaultText;
    private final String unit;
    private final String doc;

    ServerOption(final String path, final OptionValues values, final Object defaultValue, final String unit, final String doc) {
        this.path = path;
        this.values = values;
        this.unit = unit;
        this.doc = doc;
        if (defaultValue instanceof OptionEntries.Described described) {
            this.defaultValue = null;
            this.defaultText = described.text();
        } else {
            checkDefault(path, values, defaultValue);
            this.defaultValue = defaultValue;
            this.defaultText = defaultValue instanceof Double d ? OptionValues.plain(d) : String.valueOf(defaultValue);
        }
    }

    /** @return the full key path, e.g. {@code server.metrics.port}; {@code []} stands for every list item */
    public String path() {
        return path;
    }

    /** @return the last part of the path, as written in the file, e.g. {@code port} */
    public String key() {
        return path.substring(path.lastIndexOf('.') + 1);
    }

    /** @return the path of the mapping that holds the key, e.g. {@code server.metrics}; empty at the top level */
    public String parent() {
        final int dot = path.lastIndexOf('.');
        return dot < 0 ? "" : path.substring(0, dot);
    }

    /** @return the values the option accepts */
    public OptionValues accepts() {
        return values;
    }

    /** @return the default as the guide writes it: a value, or how it is found ({@code required}, {@code none}, ...) */
    public String defaultText() {
        return defaultText;
    }

    /** @return the unit of a number, e.g. {@code ms}; empty when it has none */
    public String unit() {
        return unit;
    }

    /** @return one line saying what the option does */
    public String doc() {
        return doc;
    }

    /** @return the whole-number default */
    public long defaultWhole() {
        return typedDefault(Long.class);
    }

    /** @return the decimal default */
    public double defaultDecimal() {
        return typedDefault(Double.class);
    }

    /** @return the boolean default */
    public boolean defaultFlag() {
        return typedDefault(Boolean.class);
    }

    /** @return the text (or word) default */
    public String defaultString() {
        return typedDefault(String.class);
    }

    /** @return the allowed range of a whole-number option */
    public OptionValues.Whole whole() {
        return typedValues(OptionValues.Whole.class);
    }

    /** @return the allowed interval of a decimal option */
    public OptionValues.Decimal decimal() {
        return typedValues(OptionValues.Decimal.class);
    }

    /**
     * For the records' own checks: the same range the reader enforces.
     *
     * @param value a whole number meant for this option
     * @return the value
     * @throws IllegalArgumentException naming the key path and range when it is out of range
     */
    public long checked(final long value) {
        if (!whole().contains(value)) {
            throw new IllegalArgumentException(path + " must be " + whole().describe() + ", was " + value);
        }
        return value;
    }

    /**
     * For the records' own checks: the same interval the reader enforces.
     *
     * @param value a number meant for this decimal option
     * @return the value
     * @throws IllegalArgumentException naming the key path and interval when it is outside
     */
    public double checkedDecimal(final double value) {
        if (!decimal().contains(value)) {
            throw new IllegalArgumentException(path + " must be " + decimal().describe() + ", was " + value);
        }
        return value;
    }

    /**
     * @param parent a mapping's path in the form {@link #parent()} returns, e.g. {@code connections[]}
     * @return the keys that mapping may hold, in table order
     */
    public static Set<String> keysIn(final String parent) {
        final Set<String> keys = new LinkedHashSet<>();
        for (final ServerOption option : values()) {
            if (option.parent().equals(parent)) {
                keys.add(option.key());
            }
        }
        return keys;
    }

    /**
     * @param parent a mapping's path, as for {@link #keysIn}
     * @return its options, in table order
     */
    public static List<ServerOption> in(final String parent) {
        final List<ServerOption> options = new ArrayList<>();
        for (final ServerOption option : values()) {
            if (option.parent().equals(parent)) {
                options.add(option);
            }
        }
        return options;
    }

    private <T> T typedDefault(final Class<T> type) {
        if (!type.isInstance(defaultValue)) {
            throw new IllegalStateException(path + " has no default of type " + type.getSimpleName() + " (its default: "
                + defaultText + ")");
        }
        return type.cast(defaultValue);
    }

    private <T extends OptionValues> T typedValues(final Class<T> type) {
        if (!type.isInstance(values)) {
            throw new IllegalStateException(path + " is not " + type.getSimpleName() + " but " + values);
        }
        return type.cast(values);
    }
}
