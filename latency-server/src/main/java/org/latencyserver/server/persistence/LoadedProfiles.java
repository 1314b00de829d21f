package org.latencyserver.server.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileLimits;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.server.config.ProfileFit;
import org.latencyserver.server.table.ConnectionSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Profiles a planner loaded into the running server ({@code profile load}), kept beside the state
 * file so that a restart serves them again instead of falling back to the configured files.
 *
 * <p>Each is stored as {@code <state_file>.profiles/<name>.json}, replaced whole
 * ({@link StateFiles#replace}), so a crash leaves the old or the new file, never half of one. On start each
 * is checked again as {@code load_profile} checked it — validated within the configured limits and
 * against the configured connections ({@link ProfileFit}), which may have changed since; one that
 * fails is moved aside ({@code .refused-<time>}), logged with its faults, and the configured profile
 * of that name serves. Called from the ORB thread that completed a load (after the swap) and from
 * start-up; not concurrently.
 */
public final class LoadedProfiles {

    private static final Logger LOG = LoggerFactory.getLogger(LoadedProfiles.class);

    private final Path directory;

    /** @param stateFile the server's state file; the profiles live in a directory beside it */
    public LoadedProfiles(final Path stateFile) {
        final Path absolute = stateFile.toAbsolutePath();
        this.directory = absolute.resolveSibling(absolute.getFileName() + ".profiles");
    }

    /** @return where loaded profiles are kept */
    public Path directory() {
        return directory;
    }

    /**
     * Keeps a profile that was just loaded.
     *
     * @param profile the validated profile
     * @throws IOException when it cannot be written (the profile still serves until a restart)
     */
    public void save(final Profile profile) throws IOException {
        Files.createDirectories(directory);
        final Path target = directory.resolve(fileName(profile.name()));
        final byte[] json = utf8(ProfileJson.toJson(profile));
        StateFiles.replace(target, ".loading-", ".json.tmp", out -> out.write(json));
    }

    /** @throws CharacterCodingException for text UTF-8 cannot hold (a lone surrogate), as writing it as a string would */
    private static byte[] utf8(final String text) throws CharacterCodingException {
        final ByteBuffer encoded = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(text));
        final byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        return bytes;
    }

    /**
     * @param limits      the size and histogram limits a profile is read within
     * @param connections the configured connections, which every restored profile must fit
     * @return the kept profiles by name, each checked again; none when there are none
     */
    public Map<String, Profile> restore(final ProfileLimits limits, final List<ConnectionSpec> connections) {
        final Map<String, Profile> restored = new LinkedHashMap<>();
        if (!Files.isDirectory(directory)) {
            return restored;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.json")) {
            for (final Path file : files) {
                if (file.getFileName().toString().startsWith(".")) {
                    continue; // a write cut short by a kill (".loading-…" of older versions), never a kept profile
                }
                try {
                    final Profile profile = ProfileJson.read(file, limits);
                    final List<InputFault> misfits = ProfileFit.faults(profile, file.toString(), connections);
                    if (!misfits.isEmpty()) {
                        throw new ProfileValidationException(misfits);
                    }
                    restored.put(profile.name(), profile);
                    LOG.info("profile {} restored from {} (loaded by a planner before the restart)", profile.name(), file);
                } catch (ProfileValidationException e) {
                    final Path aside = file.resolveSibling(file.getFileName() + ".refused-" + System.currentTimeMillis());
                    Files.move(file, aside);
                    LOG.error("the loaded profile {} no longer passes the checks start-up runs and was moved to {}; the configured"
                        + " profile of its name serves:{}{}", file, aside, System.lineSeparator(), e.getMessage());
                }
            }
        } catch (IOException e) {
            LOG.error("cannot read the loaded profiles in {}: {}; serving the configured profiles", directory, e.getMessage());
        }
        return restored;
    }

    private static String fileName(final String profileName) {
        return profileName.replaceAll("[^A-Za-z0-9._-]", "_") + ".json";
    }
}
