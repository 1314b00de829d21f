package org.latencyserver.server.config;

import java.util.Objects;

/**
 * How to reach the SNMP agent of a node or link (its {@code snmp:} block). Secrets are never held
 * here, only the names of the environment variables that hold them, so this record can be logged.
 *
 * <p>Immutable and thread-safe.
 *
 * @param address          the agent, in SNMP4J's form {@code udp:HOST/PORT} or {@code tcp:HOST/PORT},
 *                         e.g. {@code udp:127.0.0.1/16101}; {@code address}, required
 * @param version          {@code version}: {@code v2c} or {@code v3}, required
 * @param communityEnv     v2c: the environment variable holding the community; {@code community_env},
 *                         required for v2c; null for v3
 * @param user             v3: the USM user name; {@code user}, required for v3; null for v2c
 * @param authProtocol     v3: {@code auth_protocol}, {@code sha} or {@code sha256} (any case), default sha; null for v2c
 * @param authPasswordEnv  v3: the environment variable holding the authentication passphrase;
 *                         {@code auth_password_env}, required for v3; null for v2c
 * @param privProtocol     v3: {@code priv_protocol}, {@code aes} (128) or {@code aes256} (any case), default aes; null for v2c
 * @param privPasswordEnv  v3: the environment variable holding the privacy passphrase;
 *                         {@code priv_password_env}, required for v3 (authPriv only); null for v2c
 * @param cpuSource        nodes: {@code cpu_source}, default {@code ucd-raw}; null for links
 * @param timeoutMillis    one request's timeout, 1..60,000 ms; {@code timeout_millis}, default {@value #DEFAULT_TIMEOUT_MILLIS}
 * @param retries          retries after a timeout, 0..10; {@code retries}, default {@value #DEFAULT_RETRIES}
 * @param localAddress     the IP address of this machine the poller sends this agent's requests from
 *                         ({@code local_address}); null for the default, which the poller resolves over
 *                         all agents without one: the loopback when every one of them is on a loopback
 *                         address, else the wildcard
 */
public record SnmpAccess(String address, Version version, String communityEnv, String user, AuthProtocol authProtocol,
                         String authPasswordEnv, PrivProtocol privProtocol, String privPasswordEnv, CpuSource cpuSource,
                         long timeoutMillis, int retries, String localAddress) {

    /** Default request timeout. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 300;
    /** Default retries. */
    public static final int DEFAULT_RETRIES = 0;

    /**
     * @throws IllegalArgumentException when the version's required fields are missing or the other
     *                                  version's are present, or a number is out of range
     */
    public SnmpAccess {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(version, "version");
        if (version == Version.V2C && (communityEnv == null || user != null || authProtocol != null
            || authPasswordEnv != null || privProtocol != null || privPasswordEnv != null)) {
            throw new IllegalArgumentException("SNMP v2c needs community_env and nothing of v3");
        }
        if (version == Version.V3 && (communityEnv != null || user == null || authProtocol == null
            || authPasswordEnv == null || privProtocol == null || privPasswordEnv == null)) {
            throw new IllegalArgumentException("SNMP v3 needs user, auth and priv (authPriv), and no community");
        }
        if (timeoutMillis < 1 || timeoutMillis > 60_000 || retries < 0 || retries > 10) {
            throw new IllegalArgumentException("SNMP timeout must be 1..60000 ms and retries 0..10, was "
                + timeoutMillis + " ms, " + retries);
        }
        if (localAddress != null && localAddress.isBlank()) {
            throw new IllegalArgumentException("an SNMP local address must be an IP address or absent (null), was blank");
        }
    }

    /**
     * An access sent from the default local address (no {@code local_address}).
     *
     * @see #SnmpAccess(String, Version, String, String, AuthProtocol, String, PrivProtocol, String, CpuSource, long, int, String)
     */
    public SnmpAccess(final String address, final Version version, final String communityEnv, final String user,
                      final AuthProtocol authProtocol, final String authPasswordEnv, final PrivProtocol privProtocol,
                      final String privPasswordEnv, final CpuSource cpuSource, final long timeoutMillis, final int retries) {
        this(address, version, communityEnv, user, authProtocol, authPasswordEnv, privProtocol, privPasswordEnv, cpuSource,
            timeoutMillis, retries, null);
    }

    /** SNMP protocol version. */
    public enum Version implements ConfigWord {
        /** community-based v2c ({@code v2c}) */
        V2C,
        /** user-based v3 with authentication and privacy ({@code v3}) */
        V3
    }

    /** SNMPv3 authentication protocol. */
    public enum AuthProtocol implements ConfigWord {
        /** HMAC-SHA-96 ({@code sha}) */
        SHA,
        /** HMAC-SHA-256 ({@code sha256}) */
        SHA256
    }

    /** SNMPv3 privacy (encryption) protocol. */
    public enum PrivProtocol implements ConfigWord {
        /** AES-128 ({@code aes}) */
        AES,
        /** AES-256 ({@code aes256}) */
        AES256
    }

    /** Which MIB a node's CPU utilisation is read from when the server polls it over SNMP. */
    public enum CpuSource implements ConfigWord {
        /** UCD-SNMP-MIB raw CPU tick counters (ssCpuRaw*, .1.3.6.1.4.1.2021.11.50–), as a delta over the poll interval ({@code ucd-raw}) */
        UCD_RAW,
        /** HOST-RESOURCES-MIB hrProcessorLoad, averaged over the processors ({@code hr-processor-load}) */
        HR_PROCESSOR_LOAD
    }
}
