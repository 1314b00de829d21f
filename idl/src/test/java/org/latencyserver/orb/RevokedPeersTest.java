package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.omg.CORBA.NO_PERMISSION;
import org.omg.CORBA.ORB;

/**
 * A pinning ORB with a revoked-serials file ({@link RevokedSerialsWatch}), against echo servers that present peer
 * certificates of a test CA: a listed serial is refused at the handshake, and on a connection opened before it was
 * listed from the next call on; a bad file keeps the last good list. The file is re-read by calling
 * {@link RevokedSerialsWatch#reloadIfChanged} (a started watch does so every interval).
 */
class RevokedPeersTest {

    private static final byte[] PAYLOAD = {5, 6, 7};

    /** The test authorities' stores, removed after the class. */
    @TempDir
    static Path authorities;
    private static TestCertificateAuthority deployment;
    private static Path revokedFile;
    private static RevokedSerialsWatch watch;
    private static ORB pinningOrb;
    /** Each write of the list gets a modification time of its own, so that the watch sees every change. */
    private static long modifiedSeconds = 1_000_000;

    @BeforeAll
    static void makeCertificatesAndThePinningOrb() throws Exception {
        deployment = TestCertificateAuthority.create(authorities, "deployment");
        revokedFile = authorities.resolve("revoked-serials.txt");
        Files.createFile(revokedFile);
        watch = RevokedSerialsWatch.open(revokedFile);
        pinningOrb = OrbSupport.init(new String[0], TlsPinning.pinningClient(OrbSupport.properties("127.0.0.1", 0, 10_000),
            deployment.stores(deployment.issue("agent", "ws1", false)), watch));
    }

    @AfterAll
    static void shutDown() throws Exception {
        if (pinningOrb != null) {
            pinningOrb.shutdown(false);
        }
        if (watch != null) {
            watch.close();
        }
    }

    @BeforeEach
    void nothingIsRevoked() throws Exception {
        list("# nothing revoked\n");
    }

    @Test
    void aPeerWhoseSerialIsListedIsRefusedInTheHandshakeAndNeverCalled() throws Exception {
        final Path ws2 = deployment.issue("peer", "ws2", true);
        final BigInteger serial = TestCertificateAuthority.serialOf(ws2);
        list("# stolen\n" + serial.toString(16) + "  # CN=ws2\n");
        try (TlsPinningTest.EchoServer revoked = TlsPinningTest.EchoServer.tls(deployment.stores(ws2))) {
            final NO_PERMISSION refused = assertThrows(NO_PERMISSION.class, () -> pinned(revoked).echo(PAYLOAD));
            assertEquals(TlsPinning.REFUSED_MINOR, refused.minor, refused.toString());
            assertTrue(refused.getMessage().contains("TLS handshake") && refused.getMessage().contains("CN=ws2,OU=peer"),
                refused.getMessage());
            assertTrue(refused.getMessage().contains("is revoked: its serial " + serial.toString(16) + " is listed in " + revokedFile),
                refused.getMessage());
            assertEquals(0, revoked.answers.get(), "no request got past the handshake");
        }
    }

    @Test
    void anUnlistedPeerIsCalledAndRefusedFromTheNextCallOnceItsSerialIsListed() throws Exception {
        final Path ws3 = deployment.issue("peer", "ws3", true);
        final BigInteger serial = TestCertificateAuthority.serialOf(ws3);
        list("0x00ff\n");
        try (TlsPinningTest.EchoServer peer = TlsPinningTest.EchoServer.tls(deployment.stores(ws3))) {
            final EchoPeer pinned = EchoPeerHelper.unchecked_narrow(TlsPinning.pin(pinningOrb.string_to_object(peer.ior),
                PinnedIdentity.peer("ws3")));
            assertArrayEquals(PAYLOAD, pinned.echo(PAYLOAD));
            list("0x00ff\n" + serial.toString(16) + "\n");
            final NO_PERMISSION refused = assertThrows(NO_PERMISSION.class, () -> pinned.echo(PAYLOAD));
            assertTrue(refused.getMessage().contains("serial " + serial.toString(16) + " is revoked"), refused.getMessage());
            assertEquals(1, peer.answers.get(), "the call after the listing was refused before it was sent");
        }
    }

    @Test
    void aBadFileKeepsTheLastGoodListAndAChangedGoodOneIsTakenAgain() throws Exception {
        list("abc123\n");
        assertTrue(watch.current().contains(new BigInteger("abc123", 16)));
        Files.writeString(revokedFile, "abc123\nCN=ws2 is not a serial\n");
        Files.setLastModifiedTime(revokedFile, FileTime.fromMillis(++modifiedSeconds * 1_000));
        assertFalse(watch.reloadIfChanged(), "a bad file is refused");
        assertTrue(watch.current().contains(new BigInteger("abc123", 16)), "the last good list stays in force");
        assertFalse(watch.reloadIfChanged(), "an unchanged bad file is not tried again");
        list("def456\n");
        assertFalse(watch.current().contains(new BigInteger("abc123", 16)));
        assertTrue(watch.current().contains(new BigInteger("def456", 16)));
    }

    @Test
    void aFileThatCannotBeReadAtTheStartIsRefusedNamingIt() {
        final Path missing = revokedFile.resolveSibling("no-such-revoked-serials");
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> RevokedSerialsWatch.open(missing));
        assertTrue(refused.getMessage().contains("revoked serials file " + missing + " cannot be read"), refused.getMessage());
    }

    /** Writes the list with a modification time of its own and has the watch take it. */
    private static void list(final String content) throws Exception {
        Files.writeString(revokedFile, content);
        Files.setLastModifiedTime(revokedFile, FileTime.fromMillis(++modifiedSeconds * 1_000));
        assertTrue(watch.reloadIfChanged(), "the watch takes the changed list");
    }

    private static EchoPeer pinned(final TlsPinningTest.EchoServer server) {
        return EchoPeerHelper.unchecked_narrow(TlsPinning.pin(pinningOrb.string_to_object(server.ior), PinnedIdentity.peer("ws2")));
    }
}
