package org.latencyserver.orb;

import org.jacorb.orb.Delegate;
import org.jacorb.orb.iiop.IIOPAddress;
import org.jacorb.orb.iiop.IIOPProfile;
import org.omg.CORBA.portable.ObjectImpl;

/**
 * The address a JacORB object reference publishes (its effective IIOP profile's): what a test
 * checks when a component was told which host and port its callback object listens on.
 *
 * @param host the host as written in the reference
 * @param port the port
 */
public record PublishedAddress(String host, int port) {

    /**
     * @param reference a reference made or parsed by a JacORB ORB
     * @return its effective IIOP profile's address
     * @throws IllegalArgumentException when it has no IIOP profile
     */
    public static PublishedAddress of(final org.omg.CORBA.Object reference) {
        final Delegate delegate = (Delegate) ((ObjectImpl) reference)._get_delegate();
        if (!(delegate.getParsedIOR().getEffectiveProfile() instanceof IIOPProfile profile)
            || !(profile.getAddress() instanceof IIOPAddress address)) {
            throw new IllegalArgumentException("the reference has no IIOP address: " + delegate.getParsedIOR().getIORString());
        }
        return new PublishedAddress(address.getOriginalHost(), address.getPort());
    }
}
