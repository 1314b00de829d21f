package org.latencyserver.client.mirror;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.latencyserver.mirror.EstimateMirror;
import org.latencyserver.mirror.MirrorLayout;
import org.latencyserver.mirror.MirrorRecord;
import org.latencyserver.mirror.ReadStatus;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./latency mirror-read}: prints what a mirror file holds, read exactly as an application
 * reads it (the Java {@link EstimateMirror}), once or every second. Exit 1 when the file cannot be
 * read or the mirror is dead.
 */
@Command(name = "mirror-read", mixinStandardHelpOptions = true, version = "latency mirror-read 0.1.0",
    description = "Print the estimates in a mirror file, read without a call, as an application reads them.")
public final class MirrorReadMain implements Callable<Integer> {

    @Option(names = "--file", required = true, paramLabel = "PATH", description = "The mirror file (./latency mirror --file).")
    private Path file;

    @Option(names = "--watch", description = "Print again every second; Ctrl-C to leave.")
    private boolean watch;

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new MirrorReadMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final EstimateMirror mirror;
        try {
            mirror = EstimateMirror.open(file);
        } catch (IOException e) {
            System.err.println("latency mirror-read: " + e.getMessage());
            return 1;
        }
        try (mirror) {
            while (true) {
                final boolean alive = print(mirror, System.out, System.currentTimeMillis());
                if (!watch) {
                    return alive ? 0 : 1;
                }
                Thread.sleep(1_000);
            }
        }
    }

    /** @return whether the mirror is alive */
    static boolean print(final EstimateMirror mirror, final PrintStream out, final long nowEpochMillis) {
        final boolean alive = mirror.alive(nowEpochMillis);
        out.printf(Locale.ROOT, "mirror %s: %s, heartbeat %d ms ago, server %s%n", mirror.path(), alive ? "alive" : "DEAD",
            mirror.heartbeatAgeMillis(nowEpochMillis), link(mirror.serverLink()));
        out.println(" conn qos  state  estimate                                   flags");
        final MirrorRecord record = new MirrorRecord();
        for (int indexRef = MirrorLayout.MIN_INDEX_REF; indexRef <= MirrorLayout.MAX_INDEX_REF; indexRef++) {
            final ReadStatus status = mirror.read(indexRef, record, nowEpochMillis);
            if (status == ReadStatus.NOT_MIRRORED) {
                continue;
            }
            if (status == ReadStatus.BUSY) {
                out.printf(Locale.ROOT, "%5d (being written)%n", indexRef);
                continue;
            }
            out.printf(Locale.ROOT, "%5d   %d  %2d/%-3d %-42s %s%n", indexRef, record.qos(), record.cpuState(), record.portState(),
                value(record), flags(record));
        }
        return alive;
    }

    private static String value(final MirrorRecord record) {
        if (!record.hasEstimate()) {
            return "-";
        }
        if (record.kind() == MirrorLayout.KIND_BOUND) {
            return String.format(Locale.ROOT, "%.3f ms at %.0f %% (share CI %.1f-%.1f %%)", record.valueMillis(),
                record.boundPercent(), record.intervalLower(), record.intervalUpper());
        }
        return String.format(Locale.ROOT, "%.3f ms mean (CI %.3f-%.3f ms)", record.valueMillis(), record.intervalLower(),
            record.intervalUpper());
    }

    private static String flags(final MirrorRecord record) {
        final StringBuilder flags = new StringBuilder();
        if (record.updatePending()) {
            flags.append("pending ");
        }
        if (record.interpolated()) {
            flags.append("interpolated ");
        }
        if (record.stale()) {
            flags.append("stale: ").append(switch (record.staleReason()) {
                case MirrorLayout.STALE_REASON_INPUT_SILENT -> "an input of the server stopped";
                case MirrorLayout.STALE_REASON_SERVER_LOST -> "mirror lost the server";
                case MirrorLayout.STALE_REASON_NO_ESTIMATE -> "no estimate served";
                default -> "reason " + record.staleReason();
            });
        }
        return flags.toString().strip();
    }

    private static String link(final int code) {
        return switch (code) {
            case MirrorLayout.SERVER_LINK_PUSH -> "pushing";
            case MirrorLayout.SERVER_LINK_POLLING -> "polled";
            case MirrorLayout.SERVER_LINK_LOST -> "LOST";
            default -> "not yet reached";
        };
    }
}
