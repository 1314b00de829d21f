package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RevokedSerialsTest {

    @TempDir
    Path directory;

    @Test
    void serialsAreReadInTheirUsualSpellingsWithCommentsAndBlankLines() throws Exception {
        final Path file = Files.writeString(directory.resolve("revoked"),
            "# revoked agents\n\n5f3a9c01  # CN=ws1\n0x00AB\n  de:ad:be:ef\n");
        final RevokedSerials revoked = RevokedSerials.read(file);
        assertEquals(3, revoked.size());
        assertTrue(revoked.contains(new BigInteger("5f3a9c01", 16)));
        assertTrue(revoked.contains(BigInteger.valueOf(0xab)));
        assertTrue(revoked.contains(new BigInteger("deadbeef", 16)));
        assertFalse(revoked.contains(BigInteger.ONE));
    }

    @Test
    void aLineThatIsNotASerialIsRefusedWithItsFileAndLine() throws Exception {
        final Path file = Files.writeString(directory.resolve("revoked"), "5f3a9c01\nCN=ws1\n");
        final IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class, () -> RevokedSerials.read(file));
        assertTrue(refusal.getMessage().contains(file + " line 2"), refusal.getMessage());
        assertTrue(refusal.getMessage().contains("'CN=ws1'"), refusal.getMessage());
    }

    @Test
    void aHugeBadLineIsShownCappedWithItsLength() throws Exception {
        final Path file = Files.writeString(directory.resolve("revoked"), "z".repeat(100_000) + "\n");
        final IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class, () -> RevokedSerials.read(file));
        assertTrue(refusal.getMessage().endsWith("… (100000 chars)'"), refusal.getMessage());
        assertTrue(refusal.getMessage().length() < 600, "refusal of " + refusal.getMessage().length() + " chars");
    }
}
