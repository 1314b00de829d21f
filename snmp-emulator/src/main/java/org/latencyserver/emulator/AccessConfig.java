package org.latencyserver.emulator;

import java.util.Map;
import java.util.Optional;

/**
 * Who may read the emulated agents: an SNMPv2c community and/or one SNMPv3 USM user with
 * authPriv (SHA-1 authentication, AES-128 privacy), all read from environment variables so
 * secrets never appear on a command line. There is deliberately no default community.
 *
 * <p>Immutable and thread-safe. {@link #toString()} never shows a secret.
 *
 * @param community the v2c community, empty if v2c is off
 * @param v3 the v3 user, empty if v3 is off
 */
public record AccessConfig(Optional<String> community, Optional<V3User> v3) {
    /** Default name of the environment variable holding the v2c community. */
    public static final String COMMUNITY_ENV = "LATSERV_COMMUNITY";
    /** Environment variable holding the v3 user name. */
    public static final String V3_USER_ENV = "LATSERV_V3_USER";
    /** Environment variable holding the v3 authentication passphrase (SHA). */
    public static final String V3_AUTH_ENV = "LATSERV_V3_AUTH";
    /** Environment variable holding the v3 privacy passphrase (AES-128). */
    public static final String V3_PRIV_ENV = "LATSERV_V3_PRIV";
    /** USM (RFC 3414) needs passphrases of at least 8 characters; net-snmp refuses shorter ones. */
    public static final int MIN_PASSPHRASE_CHARS = 8;

    /**
     * An SNMPv3 USM user for authPriv. Immutable and thread-safe; {@link #toString()} hides the passphrases.
     *
     * @param userName the USM security name
     * @param authPassphrase SHA authentication passphrase, at least 8 characters
     * @param privPassphrase AES-128 privacy passphrase, at least 8 characters
     */
    public record V3User(String userName, String authPassphrase, String privPassphrase) {
        @Override
        public String toString() {
            return "V3User[" + userName + ", authPriv SHA/AES128]";
        }
    }

    @Override
    public String toString() {
        return "AccessConfig[v2c " + (community.isPresent() ? "on" : "off") + ", v3 "
                + v3.map(V3User::toString).orElse("off") + "]";
    }

    /**
     * Reads the access configuration from an environment.
     *
     * @param env the environment (System.getenv() in production)
     * @param communityEnv name of the variable holding the community
     * @param v3Only when true, v2c is off and the community variable is not needed
     * @throws IllegalArgumentException with a message saying which variable to set
     */
    public static AccessConfig fromEnvironment(Map<String, String> env, String communityEnv, boolean v3Only) {
        Optional<String> community = Optional.empty();
        if (!v3Only) {
            String value = env.get(communityEnv);
            if (value == null || value.isEmpty()) {
                throw new IllegalArgumentException("the SNMPv2c community is not set: export " + communityEnv
                        + "=<community> (there is no default such as 'public'), or pass --v3-only with "
                        + V3_USER_ENV + ", " + V3_AUTH_ENV + " and " + V3_PRIV_ENV + " set");
            }
            community = Optional.of(value);
        }
        String user = env.get(V3_USER_ENV);
        String auth = env.get(V3_AUTH_ENV);
        String priv = env.get(V3_PRIV_ENV);
        Optional<V3User> v3 = Optional.empty();
        if (isSet(user) || isSet(auth) || isSet(priv)) {
            if (!isSet(user) || !isSet(auth) || !isSet(priv)) {
                throw new IllegalArgumentException("SNMPv3 needs all of " + V3_USER_ENV + ", " + V3_AUTH_ENV
                        + " and " + V3_PRIV_ENV + "; set: " + (isSet(user) ? V3_USER_ENV + " " : "")
                        + (isSet(auth) ? V3_AUTH_ENV + " " : "") + (isSet(priv) ? V3_PRIV_ENV : ""));
            }
            if (auth.length() < MIN_PASSPHRASE_CHARS || priv.length() < MIN_PASSPHRASE_CHARS) {
                throw new IllegalArgumentException(V3_AUTH_ENV + " and " + V3_PRIV_ENV + " must be at least "
                        + MIN_PASSPHRASE_CHARS + " characters; lengths are " + auth.length() + " and " + priv.length());
            }
            v3 = Optional.of(new V3User(user, auth, priv));
        } else if (v3Only) {
            throw new IllegalArgumentException("--v3-only needs " + V3_USER_ENV + ", " + V3_AUTH_ENV + " and "
                    + V3_PRIV_ENV + " set");
        }
        return new AccessConfig(community, v3);
    }

    private static boolean isSet(String s) {
        return s != null && !s.isEmpty();
    }
}
