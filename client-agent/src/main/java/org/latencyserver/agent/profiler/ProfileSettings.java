package org.latencyserver.agent.profiler;

import java.nio.file.Path;
import java.util.List;
import org.latencyserver.core.state.CpuStatePair;

/**
 * What {@code profile measure} measures.
 *
 * @param out              the profile file to write
 * @param name             the profile's name
 * @param workstationType  the workstation type it describes
 * @param sizesBytes       message sizes, ascending
 * @param pairs            CPU state pairs: canonical when both sides are driven here; with a remote peer oriented
 *                         (this host's state, the peer host's asserted one)
 * @param roundTrips       per cell
 * @param warmupRoundTrips discarded before each cell
 * @param clientCore       the core of the client side
 * @param peerCore         the core of the peer side
 * @param resume           continue from the partial file
 * @param intervalMicros   one round trip started every this many µs at most (the message rate)
 * @param jitWarmupSeconds back-to-back round trips, unrecorded, before anything is measured
 * @param remotePeer       the peer agent on another host ({@code --peer} with {@code --peer-state}), or null when the
 *                         profiler starts its own on {@code peerCore}
 */
record ProfileSettings(Path out, String name, String workstationType, List<Integer> sizesBytes, List<CpuStatePair> pairs,
                       int roundTrips, int warmupRoundTrips, int clientCore, int peerCore, boolean resume, int intervalMicros,
                       int jitWarmupSeconds, RemotePeer remotePeer) {

    /** @return whether the peer is a peer agent on another host, whose CPU is asserted rather than driven */
    boolean remote() {
        return remotePeer != null;
    }

    /** @return where finished cells are kept until the profile is written */
    Path partialFile() {
        return out.resolveSibling(out.getFileName() + ".partial.json");
    }
}
