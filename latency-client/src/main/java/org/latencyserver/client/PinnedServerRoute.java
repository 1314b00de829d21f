package org.latencyserver.client;

import java.util.function.Function;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.PinnedIdentity;
import org.latencyserver.orb.TlsPinning;
import org.latencyserver.orb.TlsStores;
import org.omg.CORBA.ORB;

/**
 * For an application that must be sure it talks to the Latency Server and not to whatever a naming service or an
 * IOR file names: its calls to the server go over IIOP/TLS only, and only to an end whose certificate chains to
 * the deployment's CA (the stores' trust store) and is a server certificate ({@code OU=server}, and
 * {@code CN=NAME} when a name is given), as {@code ./latency certs --server NAME} issues it. Another end's calls
 * fail with {@code NO_PERMISSION} ({@link TlsPinning#isRefusal}) saying why; see {@link TlsPinning}.
 *
 * <pre>{@code
 * try (PinnedServerRoute route = PinnedServerRoute.open(stores, 10_000)) {
 *     LatencyService server = route.reach(orb, orb.string_to_object(ior), "srv", LatencyServiceHelper::unchecked_narrow);
 *     server.list_connections();
 * }
 * }</pre>
 *
 * <p>The server must serve TLS ({@code security.tls}). The stores need not hold a certificate of the
 * application's own (reads need none; an empty PKCS#12 store will do), but JacORB needs a key store file. The
 * route has an ORB of its own, whose every call requires TLS; the application keeps its own ORB for everything
 * else. A deadline goes on the pinned reference with {@code ADD_OVERRIDE}, which keeps the pin:
 * {@code pinned._set_policy_override(new Policy[] {RoundtripTimeouts.relativeRoundtripTimeout(orb, nanos)},
 * SetOverrideType.ADD_OVERRIDE)}. Not with {@link RoundtripTimeouts#withTimeout}: its {@code SET_OVERRIDE} drops
 * the pin, and a reference that lost its pin is refused, never called unchecked; nor before {@link #reach}, which
 * makes a new reference from the IOR (client policies do not travel with it).
 *
 * <p>Cost: the calls go over TLS (a few µs a call on loopback once the connection is open, and a TLS
 * handshake per connection; {@code docs/benchmarks.md}, pinned peers). Thread-safe; close it when done.
 */
public final class PinnedServerRoute implements AutoCloseable {

    private final ORB pinningOrb;

    private PinnedServerRoute(final ORB pinningOrb) {
        this.pinningOrb = pinningOrb;
    }

    /**
     * @param stores             a key store (the application's certificate, or an empty store) and the deployment's CA
     * @param replyTimeoutMillis how long a call may wait for its reply
     * @return a route with its ORB started
     */
    public static PinnedServerRoute open(final TlsStores stores, final long replyTimeoutMillis) {
        return new PinnedServerRoute(OrbSupport.init(new String[0],
            TlsPinning.pinningClient(OrbSupport.properties("127.0.0.1", 0, replyTimeoutMillis), stores)));
    }

    /**
     * @param <T>        the server's interface, e.g. {@code LatencyService} or the thesis's {@code Latserv}
     * @param orb        the ORB that resolved {@code server}
     * @param server     the server's reference (an IOR, or resolved in a naming service)
     * @param serverName the server certificate's CN ({@code ./latency certs --server NAME}), or null for any server
     *                   certificate of the CA
     * @param narrow     the interface's helper, e.g. {@code LatencyServiceHelper::unchecked_narrow}
     * @return the server, called over TLS and answered only by a server certificate
     */
    public <T> T reach(final ORB orb, final org.omg.CORBA.Object server, final String serverName,
                       final Function<org.omg.CORBA.Object, T> narrow) {
        return narrow.apply(TlsPinning.pin(pinningOrb.string_to_object(orb.object_to_string(server)),
            PinnedIdentity.server(serverName)));
    }

    @Override
    public void close() {
        pinningOrb.shutdown(false);
    }
}
