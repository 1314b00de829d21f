package org.latencyserver.core.profile;

/**
 * Where a profile's numbers come from, so a planner can judge whether they fit their hardware.
 *
 * <p>Immutable and thread-safe.
 *
 * @param source          required: e.g. {@code "thesis Appendix A"} or {@code "latency profile measure"}
 * @param hardware        the workstations and network, or null
 * @param orb             the ORB and version for the CORBA layer, or null
 * @param operatingSystem or null
 * @param measuredOn      date (ISO-8601) or year, or null
 * @param method          how it was measured (round trips per cell, bins, load drivers), or null
 */
public record Provenance(String source, String hardware, String orb, String operatingSystem, String measuredOn,
                         String method) {

    /**
     * @throws IllegalArgumentException when the source is blank
     */
    public Provenance {
        if (source == null || source.isBlank()) {
            throw new IllegalArgumentException("provenance needs a source");
        }
    }
}
