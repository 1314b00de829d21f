package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.omg.CORBA.ORB;

/**
 * The loopback-callback rule, and where a server is found from its reference without a call
 * (198.18.0.1, a benchmarking address, is never contacted: nothing here calls an object).
 */
class CallbackReachTest {

    private static final String REMOTE_SERVER = "corbaloc::198.18.0.1:2809/LatencyServer";

    private static ORB orb;

    @BeforeAll
    static void startOrb() {
        orb = PlainOrbs.withoutRetries();
    }

    @AfterAll
    static void stopOrb() {
        orb.shutdown(false);
    }

    @Test
    void aLoopbackCallbackIsFineForALoopbackServer() {
        assertEquals(Optional.empty(), CallbackReach.refusal("127.0.0.1", "127.0.0.1", "this agent's", "--host"));
        assertEquals(Optional.empty(), CallbackReach.refusal("localhost", "::1", "this agent's", "--host"));
    }

    @Test
    void aLoopbackCallbackIsRefusedForAServerNotOnLoopbackNamingTheOptionThatFixesIt() {
        assertEquals(Optional.of("the server is at 198.18.0.1, but this agent's callback address is 127.0.0.1, which the server"
                + " cannot reach; give --host with this host's address as the server reaches it"),
            CallbackReach.refusal("198.18.0.1", "127.0.0.1", "this agent's", "--host"));
        for (final String loopback : new String[] {"localhost", "127.0.1.1", "::1", "[::1]"}) {
            assertTrue(CallbackReach.refusal("198.18.0.1", loopback, "this mirror's", "--host").isPresent(), loopback);
        }
    }

    @Test
    void aCallbackNotOnLoopbackIsFineWhereverTheServerIs() {
        assertEquals(Optional.empty(), CallbackReach.refusal("198.18.0.1", "198.18.0.2", "this agent's", "--host"));
        assertEquals(Optional.empty(), CallbackReach.refusal("127.0.0.1", "198.18.0.2", "this agent's", "--host"));
        assertEquals(Optional.empty(), CallbackReach.refusal("198.18.0.1", "0.0.0.0", "this agent's", "--host"),
            "every address: the server reaches it by a non-loopback one");
    }

    @Test
    void aServerWhoseAddressCannotBeToldIsNotRefused() {
        assertEquals(Optional.empty(), CallbackReach.refusal(null, "127.0.0.1", "this agent's", "--host"));
        assertFalse(CallbackReach.isLoopback("no-such-host.invalid"));
    }

    @Test
    void theServersHostIsReadFromItsCorbalocIorOrIorFileAndForANameFromTheNamingService(@TempDir final Path directory)
        throws Exception {
        assertEquals("198.18.0.1", CallbackReach.serverHost(orb, REMOTE_SERVER, null));
        final String ior = orb.object_to_string(orb.string_to_object(REMOTE_SERVER));
        assertTrue(ior.startsWith("IOR:"), ior);
        assertEquals("198.18.0.1", CallbackReach.serverHost(orb, ior, null));
        final Path iorFile = Files.writeString(directory.resolve("server.ior"), ior + "\n");
        assertEquals("198.18.0.1", CallbackReach.serverHost(orb, iorFile.toString(), null));
        assertEquals("198.18.0.7", CallbackReach.serverHost(orb, "LatencyServer", "corbaloc::198.18.0.7:2809/NameService"));
        assertEquals("198.18.0.7", CallbackReach.serverHost(orb, "corbaname::198.18.0.7:2809#LatencyServer", null));
        assertNull(CallbackReach.serverHost(orb, "LatencyServer", null), "a name without a naming service: not known");
    }

    @Test
    void requireReachableRefusesBeforeAnyCallToTheServer() {
        final CallbackReach.Unreachable refused = assertThrows(CallbackReach.Unreachable.class,
            () -> CallbackReach.requireReachable(orb, REMOTE_SERVER, null, "127.0.0.1", "this console's", "--host"));
        assertTrue(refused.getMessage().startsWith("the server is at 198.18.0.1, but this console's callback address is 127.0.0.1"),
            refused.getMessage());
        CallbackReach.requireReachable(orb, "corbaloc::127.0.0.1:1/LatencyServer", null, "127.0.0.1", "this console's", "--host");
    }
}
