package org.latencyserver.peer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Whether a socket of this JVM is bound to a local port, read from Linux's {@code /proc/net/PROTOCOL(6)}
 * (the sockets bound to the port, by inode) and {@code /proc/self/fd} (this process's sockets).
 * Stateless; safe from any thread.
 */
final class SocketsOfThisProcess {

    private SocketsOfThisProcess() {
    }

    /**
     * @param protocol "tcp" or "udp"
     * @param port     the local port
     * @return true when one of this process's open sockets has {@code port} as its local port
     * @throws IOException when /proc cannot be read
     */
    static boolean holdPort(final String protocol, final int port) throws IOException {
        final Set<String> inodes = new HashSet<>();
        final String hexPort = ":" + String.format(Locale.ROOT, "%04X", port);
        int tablesRead = 0;
        for (final String table : List.of(protocol, protocol + "6")) {
            final Path file = Path.of("/proc/net", table);
            if (!Files.isReadable(file)) {
                continue;
            }
            tablesRead++;
            final List<String> lines = Files.readAllLines(file);
            for (final String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                final String[] fields = line.trim().split("\\s+");
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
                if (fields.length > 9 && fields[1].endsWith(hexPort) && !"0".equals(fields[9])) {
                    inodes.add("socket:[" + fields[9] + "]");
                }
            }
        }
        if (tablesRead == 0) {
            throw new IOException("neither /proc/net/" + protocol + " nor /proc/net/" + protocol + "6 can be read");
        }
        if (inodes.isEmpty()) {
            return false;
        }
        try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
            return descriptors.anyMatch(descriptor -> {
                try {
                    return inodes.contains(Files.readSymbolicLink(descriptor).toString());
                } catch (IOException closedMeanwhile) {
                    return false;
                }
            });
        }
    }
}
