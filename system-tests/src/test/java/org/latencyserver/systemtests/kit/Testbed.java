package org.latencyserver.server.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The thesis testbed's configuration ({@code examples/thesis-testbed.yaml}) as the process tests start it. */
final class Testbed {

    private Testbed() {
    }

    /** @return the testbed's text, its profile paths made absolute so the copy works from any directory */
    static String text() throws IOException {
        return Files.readString(Path.of("../examples/thesis-testbed.yaml"))
            .replace("../profiles/", Path.of("../profiles").toAbsolutePath().normalize() + "/");
    }

    /**
     * @param directory where to write it
     * @param fileName  its name
     * @param text      the configuration (usually {@link #text()}, edited)
     * @return the written file
     */
    static Path write(final Path directory, final String fileName, final String text) throws IOException {
        final Path file = directory.resolve(fileName);
        Files.writeString(file, text);
        return file;
    }
}
