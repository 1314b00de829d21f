package org.latencyserver.server.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.latencyserver.core.calibration.LearnedCell;
import org.latencyserver.core.calibration.LearnedProfiles;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;

/**
 * The read side of the update engine, for every thread but the update thread: the published rows
 * and the engine's published immutable snapshots (profiles, learned profile cells, settings,
 * limits). It holds no reference through which the engine could be changed.
 *
 * <p>Thread-safety: every method is lock-free and returns an immutable value (a row, an immutable
 * map) or a fresh list; it never waits for the update thread, so {@code RequestStatus} never does.
 */
public final class EngineQuery {

    private final ConnectionTable table;
    private final Supplier<Map<String, Profile>> profiles;
    private final Supplier<Map<String, Map<LearnedProfiles.CellKey, LearnedCell>>> learnedCells;
    private final EngineSettings settings;
    private final InputLimits limits;
    private final Supplier<PathHistograms> pathHistograms;

    /** @param engine read only through its thread-safe getters (volatile immutable snapshots) */
    EngineQuery(final UpdateEngine engine) {
        this.table = engine.table();
        this.profiles = engine::profiles;
        this.learnedCells = engine::learnedCells;
        this.settings = engine.settings();
        this.limits = engine.limits();
        this.pathHistograms = engine::pathHistograms;
    }

    /**
     * Lock-free and allocation-free.
     *
     * @param indexRef any value
     * @return the published row, or null when no connection has this {@code index_ref}
     */
    public ConnectionRow row(final short indexRef) {
        return table.row(indexRef);
    }

    /** @return every published row, in configuration order */
    public List<ConnectionRow> rows() {
        return table.rows();
    }

    /** @return the composed paths' histograms computed so far (an immutable snapshot) */
    PathHistograms pathHistograms() {
        return pathHistograms.get();
    }

    /** @return the profiles in use by name, an immutable snapshot */
    public Map<String, Profile> profiles() {
        return profiles.get();
    }

    /** @return what probes taught about profile cells, by profile name, an immutable snapshot */
    public Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learnedCells() {
        return learnedCells.get();
    }

    /** @return the engine's settings (immutable) */
    public EngineSettings settings() {
        return settings;
    }

    /** @return what a result, probe report or profile may be (immutable) */
    public InputLimits limits() {
        return limits;
    }

    /**
     * What live probes say of one profile cell: the cell, what was learned for it, and the
     * two-sample test of the one against the other.
     *
     * @param profileName the profile
     * @param key         the cell's CPU states and message size
     * @param cell        the profile's cell
     * @param live        what probes taught about it
     * @param verdict     whether they disagree significantly
     */
    public record CellDrift(String profileName, LearnedProfiles.CellKey key, ProfileCell cell, LearnedCell live,
                            LearnedCell.Verdict verdict) {
    }

    /**
     * @return every learned cell of a loaded profile tested against the profile's cell, by profile
     *         name, CPU state code and message size
     */
    public List<CellDrift> profileDrifts() {
        final Map<String, Profile> loaded = profiles();
        final List<CellDrift> drifts = new ArrayList<>();
        learnedCells().forEach((name, cells) -> {
            final Profile profile = loaded.get(name);
            if (profile != null) {
                cells.forEach((key, live) -> profile.cell(key.cpuStates(), key.messageSizeBytes())
                    .ifPresent(cell -> drifts.add(new CellDrift(name, key, cell, live, live.compareWith(cell)))));
            }
        });
        drifts.sort(Comparator.comparing(CellDrift::profileName).thenComparingInt(d -> d.key().cpuStates().code())
            .thenComparingInt(d -> d.key().messageSizeBytes()));
        return drifts;
    }

    /**
     * @param profileName a profile's name, or null
     * @return the loaded profile with what probes taught folded into its cells, or why there is none
     */
    public Answer<Profile> learnedProfile(final String profileName) {
        final Map<String, Profile> loaded = profiles();
        final Profile base = profileName == null ? null : loaded.get(profileName);
        if (base == null) {
            return Answer.unavailable("no profile '" + CallerText.capped(profileName) + "' is loaded; the loaded profiles are "
                + String.join(", ", new TreeSet<>(loaded.keySet())));
        }
        try {
            return Answer.found(LearnedProfiles.of(base, learnedCells().getOrDefault(profileName, Map.of())));
        } catch (IllegalArgumentException | IllegalStateException e) {
            return Answer.unavailable(e.getMessage());
        }
    }
}
