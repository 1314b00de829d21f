package org.latencyserver.testbed;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The SNMP secrets every agent of one testbed shares: a v2c community and a v3 authPriv user
 * (SHA, AES-128), made afresh by each {@code up} and kept only in the state directory (mode 700).
 *
 * <p>Immutable; thread-safe.
 *
 * @param community    the v2c read-only community
 * @param v3User       the v3 user name
 * @param authPassword its SHA authentication password, 8 characters or more
 * @param privPassword its AES privacy password, 8 characters or more
 */
public record SnmpCredentials(String community, String v3User, String authPassword, String privPassword) {

    /** The v3 user every testbed agent knows. */
    public static final String V3_USER = "latserv";

    /**
     * @param random where the secrets come from
     * @return new secrets: 16 hex digits each
     */
    public static SnmpCredentials generate(final SecureRandom random) {
        return new SnmpCredentials(hex(random), V3_USER, hex(random), hex(random));
    }

    private static String hex(final SecureRandom random) {
        final byte[] bytes = new byte[8];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public String toString() {
        return "SnmpCredentials[user=" + v3User + ", secrets withheld]";
    }
}
