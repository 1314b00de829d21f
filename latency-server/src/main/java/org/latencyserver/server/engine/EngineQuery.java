package org.latencyserver.server.engine;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.latencyserver.core.calibration.LearnedCell;
import org.latencyserver.core.calibration.LearnedProfiles;
import org.latencyserver.core.profile.Profile;
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

    /** @param engine read only through its thread-safe getters (volatile immutable snapshots) */
    EngineQuery(final UpdateEngine engine) {
        this.table = engine.table();
        this.profiles = engine::profiles;
        this.learnedCells = engine::learnedCells;
        this.settings = engine.settings();
        this.limits = engine.limits();
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
}
