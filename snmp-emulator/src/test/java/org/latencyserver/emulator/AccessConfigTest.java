package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AccessConfigTest {
    @Test
    void anUnsetCommunityIsRefusedWithTheVariableNamedAndNoPublicDefault() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AccessConfig.fromEnvironment(Map.of(), "LATSERV_COMMUNITY", false));
        assertTrue(e.getMessage().contains("export LATSERV_COMMUNITY="), e.getMessage());
    }

    @Test
    void theCommunityIsReadFromTheNamedVariable() {
        AccessConfig c = AccessConfig.fromEnvironment(Map.of("MY_COMM", "s3cret"), "MY_COMM", false);
        assertEquals("s3cret", c.community().orElseThrow());
        assertTrue(c.v3().isEmpty());
        assertFalse(c.toString().contains("s3cret"), "toString must not show the community");
    }

    @Test
    void v3NeedsAllThreeVariables() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AccessConfig.fromEnvironment(
                Map.of("C", "x", "LATSERV_V3_USER", "u", "LATSERV_V3_AUTH", "authpass1"), "C", false));
        assertTrue(e.getMessage().contains("LATSERV_V3_PRIV"), e.getMessage());
    }

    @Test
    void v3PassphrasesShorterThanEightCharactersAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AccessConfig.fromEnvironment(
                Map.of("LATSERV_V3_USER", "u", "LATSERV_V3_AUTH", "short", "LATSERV_V3_PRIV", "longenough"), "C", true));
        assertTrue(e.getMessage().contains("at least 8"), e.getMessage());
    }

    @Test
    void v3OnlyNeedsNoCommunityAndHidesThePassphrases() {
        AccessConfig c = AccessConfig.fromEnvironment(
                Map.of("LATSERV_V3_USER", "u", "LATSERV_V3_AUTH", "authpass1", "LATSERV_V3_PRIV", "privpass1"), "C", true);
        assertTrue(c.community().isEmpty());
        assertEquals("u", c.v3().orElseThrow().userName());
        assertFalse(c.toString().contains("authpass1") || c.toString().contains("privpass1"), c.toString());
    }
}
