package org.latencyserver.client.mirror;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.latencyserver.mirror.EstimateMirror;
import org.latencyserver.mirror.MirrorFileTruncatedException;
import org.latencyserver.mirror.MirrorLayout;
import org.latencyserver.mirror.MirrorRecord;
import org.latencyserver.mirror.ReadStatus;
import org.latencyserver.mirror.RecordCheck;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./latency mirror-read}: prints what a mirror file holds, read exactly as an application
 * reads it (the Java {@link EstimateMirror}), once or every second. Exit 1 when the file cannot be
 * read, is truncated under the reader, holds a bad record (printed with the rule it breaks) or the
 * mirror is dead.
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
                final boolean healthy = print(mirror, System.out, System.currentTimeMillis());
                if (!watch) {
                    return healthy ? 0 : 1;
                }
                Thread.sleep(1_000);
            }
        } catch (MirrorFileTruncatedException e) {
            System.err.println("latency mirror-read: " + e.getMessage());
            return 1;
        }
    }

    /**
     * @return whether the mirror is alive and every record it holds is whole and keeps the layout
     * @throws MirrorFileTruncatedException naming the file when it was truncated under the reader
     */
    static boolean print(final EstimateMirror mirror, final PrintStream out, final long nowEpochMillis) {
        final long heartbeatAgeMillis = mirror.heartbeatAgeMillis(nowEpochMillis);
        boolean healthy = mirror.alive(nowEpochMillis);
        out.printf(Locale.ROOT, "mirror %s: %s, heartbeat %d ms ago, server %s%n", mirror.path(), healthy ? "alive" : "DEAD",
            heartbeatAgeMillis, link(mirror.serverLink()));
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
            if (status == ReadStatus.FILE_TRUNCATED) {
                out.printf(Locale.ROOT, "%5d FILE TRUNCATED under the reader; open it again%n", indexRef);
                return false;
            }
            if (status == ReadStatus.BAD_RECORD) {
                out.printf(Locale.ROOT, "%5d BAD RECORD: %s%n", indexRef, RecordCheck.problem(record, indexRef));
                healthy = false;
                continue;
            }
            out.printf(Locale.ROOT, "%5d   %d  %2d/%-3d %-42s %s%n", indexRef, record.qos(), record.cpuState(), record.portState(),
                value(record), flags(record));
        }
        return healthy;
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
