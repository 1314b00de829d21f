package org.latencyserver.orb;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.jacorb.orb.Delegate;
import org.jacorb.orb.etf.ProtocolAddressBase;
import org.jacorb.orb.iiop.IIOPAddress;
import org.jacorb.orb.iiop.IIOPProfile;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import org.omg.CORBA.portable.ObjectImpl;
import org.omg.ETF.Profile;

/**
 * Whether the server can push to a component's callback object: a component whose callback address
 * is loopback (127.0.0.0/8, ::1, {@code localhost}, or a name that resolves to one) while its server
 * is not on loopback would wait for pushes that can never arrive, so it refuses to start instead.
 * The client agent, the mirror and the status console (when it takes pushes) ask this before they
 * serve their callback object and before any call to the server.
 *
 * <p>Where the server is, without calling it ({@link #serverHost}): the host of the effective IIOP
 * profile of the reference given (an IOR file, an {@code IOR:} or a {@code corbaloc:}); for a
 * server found by name, or a {@code corbaname:}, the naming service's host stands for the server's.
 * An address that cannot be told (an unknown form, a name that does not resolve) is taken as
 * reachable: the rule refuses only what it knows cannot work.
 *
 * <p>Stateless; thread-safe.
 */
public final class CallbackReach {

    private CallbackReach() {
    }

    /**
     * The rule.
     *
     * @param serverHost   where the server is (a host name or address), or null when unknown
     * @param callbackHost the component's callback address
     * @param whose        the callback's owner in the message, e.g. {@code this agent's}
     * @param hostOption   the option that sets the callback address, e.g. {@code --host}
     * @return why the server cannot reach the callback, one line, or empty when it can (or it cannot be told)
     */
    public static Optional<String> refusal(final String serverHost, final String callbackHost, final String whose,
                                           final String hostOption) {
        if (serverHost == null || isLoopback(serverHost) || !isLoopback(callbackHost)) {
            return Optional.empty();
        }
        return Optional.of("the server is at " + serverHost + ", but " + whose + " callback address is " + callbackHost
            + ", which the server cannot reach; give " + hostOption + " with this host's address as the server reaches it");
    }

    /**
     * Checks the rule for a component about to serve its callback object.
     *
     * @param orb          the component's ORB (only parses references here; nothing is called)
     * @param server       the server as given ({@code --server}, or the default name with a naming service)
     * @param naming       the naming service's reference, or null
     * @param callbackHost the component's callback address
     * @param whose        the callback's owner in the message, e.g. {@code this agent's}
     * @param hostOption   the option that sets the callback address, e.g. {@code --host}
     * @throws Unreachable with {@link #refusal}'s line when the server cannot reach the callback
     */
    public static void requireReachable(final ORB orb, final String server, final String naming, final String callbackHost,
                                        final String whose, final String hostOption) {
        final Optional<String> refusal = refusal(serverHost(orb, server, naming), callbackHost, whose, hostOption);
        if (refusal.isPresent()) {
            throw new Unreachable(refusal.get());
        }
    }

    /**
     * @param host a host name or address, as given to an option or found in a reference ({@code [::1]} too)
     * @return whether it is a loopback address or a name that resolves to one; false when it does not resolve
     */
    public static boolean isLoopback(final String host) {
        if (host == null || host.isBlank()) {
            return false;
        }
        String bare = host.strip();
        if (bare.startsWith("[") && bare.endsWith("]")) {
            bare = bare.substring(1, bare.length() - 1);
        }
        final String lower = bare.toLowerCase(Locale.ROOT);
        if (lower.equals("localhost") || lower.endsWith(".localhost")) {
            return true;
        }
        try {
            return InetAddress.getByName(bare).isLoopbackAddress();
        } catch (UnknownHostException | SecurityException unknown) {
            return false;
        }
    }

    /**
     * Where the server is, from its reference as given, without calling it or the naming service.
     *
     * @param orb    an ORB to parse references with
     * @param server the server as given: an IOR file, {@code IOR:}, {@code corbaloc:}, {@code corbaname:} or a name
     * @param naming the naming service's reference, or null
     * @return the host of the reference's effective IIOP profile (for a name or a {@code corbaname:}, the naming
     *     service's), or null when it cannot be told
     */
    public static String serverHost(final ORB orb, final String server, final String naming) {
        if (server == null || server.isBlank()) {
            return null;
        }
        final String trimmed = server.strip();
        if (trimmed.startsWith("corbaname:")) {
            final int key = trimmed.indexOf('/');
            final int name = trimmed.indexOf('#');
            final int end = key >= 0 ? key : name >= 0 ? name : trimmed.length();
            return hostOf(orb, "corbaloc:" + trimmed.substring("corbaname:".length(), end) + "/NameService");
        }
        if (References.isStringified(trimmed)) {
            return hostOf(orb, trimmed);
        }
        final Path file = Path.of(trimmed);
        if (Files.isRegularFile(file)) {
            try {
                final String content = Files.readString(file).strip();
                return References.isStringified(content) ? serverHost(orb, content, naming) : null;
            } catch (IOException unreadable) {
                return null; // resolving will say so
            }
        }
        return naming == null ? null : serverHost(orb, naming, null);
    }

    private static String hostOf(final ORB orb, final String reference) {
        final org.omg.CORBA.Object object;
        try {
            object = orb.string_to_object(reference);
        } catch (SystemException | IllegalArgumentException notAReference) {
            return null; // resolving will say so
        }
        if (!(object instanceof ObjectImpl) || !(((ObjectImpl) object)._get_delegate() instanceof Delegate)) {
            return null;
        }
        final Profile profile = ((Delegate) ((ObjectImpl) object)._get_delegate()).getParsedIOR().getEffectiveProfile();
        if (profile instanceof IIOPProfile) {
            final ProtocolAddressBase address = ((IIOPProfile) profile).getAddress();
            if (address instanceof IIOPAddress) {
                return ((IIOPAddress) address).getOriginalHost();
            }
        }
        return null;
    }

    /** A component's refusal to start because the server cannot reach its callback address; the message is one line. */
    public static final class Unreachable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** @param message why, naming the option that fixes it */
        public Unreachable(final String message) {
            super(message);
        }
    }
}
