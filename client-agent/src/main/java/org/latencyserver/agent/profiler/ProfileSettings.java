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
 * @param pairs            CPU state pairs (canonical)
 * @param roundTrips       per cell
 * @param warmupRoundTrips discarded before each cell
 * @param clientCore       the core of the client side
 * @param peerCore         the core of the peer side
 * @param resume           continue from the partial file
 * @param intervalMicros   one round trip started every this many µs at most (the message rate)
 * @param jitWarmupSeconds back-to-back round trips, unrecorded, before anything is measured
 */
record ProfileSettings(Path out, String name, String workstationType, List<Integer> sizesBytes, List<CpuStatePair> pairs,
                       int roundTrips, int warmupRoundTrips, int clientCore, int peerCore, boolean resume, int intervalMicros,
                       int jitWarmupSeconds) {

    /** @return where finished cells are kept until the profile is written */
    Path partialFile() {
        return out.resolveSibling(out.getFileName() + ".partial.json");
    }
}
