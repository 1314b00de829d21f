package org.latencyserver.server.corba;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.server.config.ProfileFit;
import org.latencyserver.server.engine.EngineQuery;
import org.latencyserver.server.engine.ProfileInstaller;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The planner's write, {@code load_profile}, as a {@link WriteCall}: the caller must be a planner; the
 * profile is read within the configured size and bins, then checked against the configured connections
 * (what start-up checks), and swapped in on the update thread. A refused profile leaves the one serving.
 *
 * <p>Immutable and thread-safe; the calls it makes run on the ORB's request threads.
 */
final class ProfileLoads {

    private final EngineQuery query;
    private final WriteGuard guard;
    private final ProfileInstaller profiles;

    /**
     * @param query    the published state: connections and limits
     * @param guard    who may write what
     * @param profiles swaps a profile in and keeps it for the next start
     */
    ProfileLoads(final EngineQuery query, final WriteGuard guard, final ProfileInstaller profiles) {
        this.query = Objects.requireNonNull(query, "query");
        this.guard = Objects.requireNonNull(guard, "guard");
        this.profiles = Objects.requireNonNull(profiles, "profiles");
    }

    /** A profile that passed the checks, and where it came from. */
    record CheckedProfile(Profile profile, String source) {
    }

    /**
     * @param profileJson the profile's JSON text, possibly null
     * @param sourceName  where it came from, possibly null or blank
     * @return the {@code load_profile} write
     */
    WriteCall<CheckedProfile, ProfileInstaller.Installed> load(final String profileJson, final String sourceName) {
        return WriteCall.of(Operation.LOAD_PROFILE, () -> admit(profileJson, sourceName),
            (engine, in) -> profiles.install(in.profile(), in.source()), (in, installed) -> Optional.empty());
    }

    private Checked<CheckedProfile> admit(final String profileJson, final String sourceName) {
        final Optional<Refusal> denied = guard.planner();
        if (denied.isPresent()) {
            return Checked.refused(denied.get());
        }
        final Optional<Refusal> longName = CallChecks.nameLength("source_name", "the source name", sourceName);
        if (longName.isPresent()) {
            return Checked.refused(longName.get());
        }
        final String source = sourceName == null || sourceName.isBlank() ? "profile from load_profile" : sourceName;
        final Profile profile;
        try {
            // Within the configured size and bins, then against the configured connections: what start-up checks.
            profile = ProfileJson.parse(profileJson == null ? "" : profileJson, source, query.limits().profileLimits());
        } catch (ProfileValidationException e) {
            return Checked.refused(refused(source, e.overSizeLimit() ? Refusal.Kind.TOO_LARGE : Refusal.Kind.BAD_PROFILE,
                e.faults()));
        }
        final List<InputFault> misfits = ProfileFit.faults(profile, source, query.rows().stream().map(ConnectionRow::spec).toList());
        if (!misfits.isEmpty()) {
            return Checked.refused(refused(source, Refusal.Kind.BAD_PROFILE, misfits));
        }
        return Checked.passed(new CheckedProfile(profile, source));
    }

    /** The caller is told the profile is refused and every fault; the message says the serving profile stays. */
    private static Refusal refused(final String source, final Refusal.Kind kind, final List<InputFault> faults) {
        return new Refusal(kind, "profile", source, "", source + " refused; the server keeps the profile it had", faults);
    }
}
