package org.latencyserver.systemtests.kit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The thesis testbed's configuration ({@code examples/thesis-testbed.yaml}) as the system tests
 * start servers on it. Paths are the repository's, seen from a module directory (Maven runs tests
 * there).
 */
public final class Testbed {

    /** The repository's profiles directory, absolute. */
    public static final Path PROFILES = Path.of("../profiles").toAbsolutePath().normalize();

    private Testbed() {
    }

    /** @return the testbed's text, its profile paths made absolute so the copy works from any directory */
    public static String text() throws IOException {
        return Files.readString(Path.of("../examples/thesis-testbed.yaml")).replace("../profiles/", PROFILES + "/");
    }

    /**
     * @param directory where to write it
     * @param fileName  its name
     * @param text      the configuration (usually {@link #text()}, edited)
     * @return the written file
     */
    public static Path write(final Path directory, final String fileName, final String text) throws IOException {
        final Path file = directory.resolve(fileName);
        Files.writeString(file, text);
        return file;
    }
}
