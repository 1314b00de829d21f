package org.latencyserver.server.engine;

import java.io.IOException;
import org.latencyserver.core.profile.Profile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a loaded profile into service and keeps it for the next start: swapped in on the update
 * thread (recomputing the connections that use it), then handed to a {@link ProfileKeeper}.
 *
 * <p>Thread-safety: any thread but the update thread. Installs are serialised by a lock so that two
 * planners loading the same name at once cannot leave one profile serving and the other kept for the
 * restart; planner calls are rare, and reads never take this lock.
 */
public final class ProfileInstaller {

    private static final Logger LOG = LoggerFactory.getLogger(ProfileInstaller.class);

    /** Keeps a loaded profile across restarts (see {@code persistence.LoadedProfiles}). */
    @FunctionalInterface
    public interface ProfileKeeper {
        /**
         * @param profile a profile that was just swapped in
         * @throws IOException when it cannot be kept; it serves until the next restart regardless
         */
        void keep(Profile profile) throws IOException;
    }

    /**
     * What an install did.
     *
     * @param recomputed   connections whose estimate was recomputed from the new profile
     * @param notKeptReason why the profile could not be kept for a restart, or null when it was kept
     */
    public record Installed(int recomputed, String notKeptReason) {
    }

    private final EngineProxy engine;
    private final ProfileKeeper keeper;
    private final Object installs = new Object();

    /**
     * @param engine where the profile is swapped in
     * @param keeper where it is kept for the next start
     */
    public ProfileInstaller(final EngineProxy engine, final ProfileKeeper keeper) {
        this.engine = engine;
        this.keeper = keeper;
    }

    /**
     * @param profile a profile that passed the checks start-up runs
     * @param source  where it came from, for the log
     * @return what was done; a profile that serves but could not be kept is said so, not refused
     * @throws EngineCallException when the update thread did not swap it in (then it was not kept either)
     */
    public Installed install(final Profile profile, final String source) throws EngineCallException {
        synchronized (installs) {
            final int recomputed = engine.swapProfile(profile);
            LOG.info("profile {} loaded from {}; {} connections recomputed", profile.name(), source, recomputed);
            try {
                keeper.keep(profile);
                return new Installed(recomputed, null);
            } catch (IOException e) {
                LOG.error("profile {} serves now but could not be kept for a restart: {}", profile.name(), e.getMessage());
                return new Installed(recomputed, e.getMessage());
            }
        }
    }
}
