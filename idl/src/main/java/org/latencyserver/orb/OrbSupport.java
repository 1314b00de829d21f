package org.latencyserver.orb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import org.omg.CORBA.ORB;

/**
 * JacORB start-up shared by the launchers: the properties that select JacORB on Java 17, bind
 * to a given host and port, and bound how long a call to a callback may hang.
 */
public final class OrbSupport {

    private OrbSupport() {
    }

    /**
     * @param host            address to listen on, e.g. 127.0.0.1
     * @param port            port to listen on; 0 for any free port
     * @param replyTimeoutMillis how long an outgoing call (a subscriber callback) may wait for its reply
     * @return the ORB properties
     */
    public static Properties properties(final String host, final int port, final long replyTimeoutMillis) {
        final Properties properties = new Properties();
        properties.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        properties.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        properties.setProperty("OAIAddr", host);
        if (port > 0) {
            properties.setProperty("OAPort", Integer.toString(port));
        }
        properties.setProperty("jacorb.connection.client.pending_reply_timeout", Long.toString(replyTimeoutMillis));
        properties.setProperty("jacorb.retries", "0");
        properties.setProperty("jacorb.log.default.verbosity", "1");
        return properties;
    }

    /**
     * @param args       ORB command-line arguments (may be empty)
     * @param properties from {@link #properties}
     * @return an initialised JacORB ORB
     */
    public static ORB init(final String[] args, final Properties properties) {
        return ORB.init(args, properties);
    }

    /**
     * Writes an IOR atomically, so that a reader polling for the file never reads half of it.
     *
     * @param file the IOR file
     * @param ior  the stringified reference
     * @throws IOException when it cannot be written
     */
    public static void writeIor(final Path file, final String ior) throws IOException {
        final Path absolute = file.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
        final Path temporary = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".tmp");
        Files.writeString(temporary, ior + System.lineSeparator(), StandardCharsets.US_ASCII);
        Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
