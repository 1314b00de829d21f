package org.latencyserver.agent.profiler;

import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.orb.References;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;

/**
 * Reaches the peer agent {@code --peer} names, as the client agent reaches its peers ({@link References#resolve}: a name
 * with {@code --naming}, a corbaloc/IOR/corbaname, or a file holding one), and checks that it answers before anything is
 * measured.
 *
 * <p>Stateless; thread-safe.
 */
final class RemotePeerAgent {

    private RemotePeerAgent() {
    }

    /**
     * @param orb       this profiler's ORB
     * @param reference as given to {@code --peer}
     * @param naming    as given to {@code --naming}, or null
     * @return the echo object, which has answered one empty echo
     * @throws IllegalStateException naming the reference and the error when it cannot be resolved or does not answer
     */
    static EchoPeer reach(final ORB orb, final String reference, final String naming) {
        final org.omg.CORBA.Object object;
        try {
            object = References.resolve(orb, reference, naming);
        } catch (References.ReferenceException e) {
            throw new IllegalStateException("--peer " + reference + ": " + e.getMessage(), e);
        }
        final EchoPeer echo = EchoPeerHelper.unchecked_narrow(object);
        try {
            echo.echo(new byte[0]);
        } catch (SystemException e) {
            throw new IllegalStateException("--peer " + reference + ": the peer agent at " + host(object) + " cannot be reached ("
                + References.describe(e) + "); is ./latency peer-agent running there, and is the port open?", e);
        }
        return echo;
    }

    /**
     * @param object a resolved reference
     * @return {@code HOST:PORT} of its first IIOP profile, or {@code "unknown host"} when it has none this ORB can read
     */
    static String host(final org.omg.CORBA.Object object) {
        try {
            final org.jacorb.orb.Delegate delegate = (org.jacorb.orb.Delegate) ((org.omg.CORBA.portable.ObjectImpl) object)
                ._get_delegate();
            if (delegate.getParsedIOR().getEffectiveProfile() instanceof org.jacorb.orb.iiop.IIOPProfile profile
                && profile.getAddress() instanceof org.jacorb.orb.iiop.IIOPAddress address) {
                return address.getOriginalHost() + ":" + address.getPort();
            }
        } catch (ClassCastException e) {
            // another ORB's reference: no host to name
        }
        return "unknown host";
    }
}
