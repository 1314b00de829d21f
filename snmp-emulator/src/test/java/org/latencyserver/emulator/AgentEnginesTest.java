package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.smi.OctetString;

class AgentEnginesTest {
    @Test
    void aKeyLocalizedFromTheMasterKeyIsTheOneSnmp4jDerivesFromThePassphrase() {
        SecurityProtocols protocols = SecurityProtocols.getInstance();
        protocols.addAuthenticationProtocol(new AuthSHA());
        protocols.addPrivacyProtocol(new PrivAES128());
        byte[] engineId = AgentEngines.engineId("ws1234");
        OctetString passphrase = new OctetString("auth-passphrase-1");
        byte[] master = AgentEngines.masterKey(passphrase.toString());
        assertArrayEquals(protocols.passwordToKey(AuthSHA.ID, passphrase, engineId), AgentEngines.localize(master, engineId));
        assertArrayEquals(protocols.passwordToKey(PrivAES128.ID, AuthSHA.ID, passphrase, engineId),
                Arrays.copyOf(AgentEngines.localize(master, engineId), 16));
    }

    @Test
    void longNamesThatShareTheirFirstTwentyCharactersGetDistinctEngineIds() {
        byte[] a = AgentEngines.engineId("workstation-of-floor-3-number-1");
        byte[] b = AgentEngines.engineId("workstation-of-floor-3-number-2");
        assertFalse(Arrays.equals(a, b));
        assertTrue(a.length <= 32, "an engine ID has at most 32 bytes, was " + a.length);
    }
}
