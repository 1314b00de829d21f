package org.latencyserver.core.profile;

/** The protocol layer a profile was measured at (the thesis measured CORBA and TCP/IP, section 3.4). Immutable and thread-safe. */
public enum Layer {
    /** Round trips through an ORB (thesis: Orbix; here: JacORB's {@code fm1}). */
    CORBA,
    /** Plain TCP round trips. */
    TCP,
    /** Plain UDP round trips. */
    UDP
}
