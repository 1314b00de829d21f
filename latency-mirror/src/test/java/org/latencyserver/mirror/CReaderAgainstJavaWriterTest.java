package org.latencyserver.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code latency_mirror.h} against the Java writer: {@code src/test/c/mirror_torn_read_test.c} is
 * compiled with gcc into {@code target/c/} and run against a mirror that a Java thread rewrites as
 * fast as it can. The C program checks the fixed records' every field (layout agreement), the
 * statuses, and that each of its accepted reads is one write's values ({@link TornReadPattern}).
 */
class CReaderAgainstJavaWriterTest {

    private static final int FIRST_SLOT = 1;
    private static final int SLOT_COUNT = 4;
    private static final long READ_DURATION_MILLIS = 3000;
    private static final long MAX_ACCEPTED_PER_THREAD = 10_000_000;
    /** What the C program's 2 reader threads reach in 3 s on 2 cores shared with the Java writer, with a wide margin. */
    private static final long ACCEPTED_FLOOR = 1_000_000;
    private static final Pattern RESULT_LINE = Pattern.compile(
        "accepted=(\\d+) busy=(\\d+) newer=(\\d+) raw_torn=(\\d+) raw_checked=(\\d+) fixed_checked=(\\d+)");

    private static Path program;

    @TempDir
    Path directory;

    @BeforeAll
    static void compileTheCProgram() throws Exception {
        final Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        final Path source = module.resolve("src/test/c/mirror_torn_read_test.c");
        final Path include = module.resolve("src/main/c");
        program = module.resolve("target/c/mirror_torn_read_test");
        Files.createDirectories(program.getParent());
        final List<String> command = List.of("gcc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-pthread",
            "-I", include.toString(), source.toString(), "-o", program.toString());
        final Process gcc;
        try {
            gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (final IOException e) {
            fail("this test compiles the C reader with gcc, which is not on the PATH (" + e.getMessage()
                + "); install it: apt-get install gcc (.ci/run does)");
            return;
        }
        final String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(gcc.waitFor(120, TimeUnit.SECONDS), "gcc did not finish in 120 s");
        assertEquals(0, gcc.exitValue(), () -> String.join(" ", command) + " failed:\n" + output);
    }

    private static ProgramRun run(final String... arguments) throws Exception {
        final List<String> command = new ArrayList<>();
        command.add(program.toString());
        command.addAll(List.of(arguments));
        final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.PIPE).start();
        final byte[][] stderr = new byte[1][];
        final Thread stderrReader = new Thread(() -> {
            try {
                stderr[0] = process.getErrorStream().readAllBytes();
            } catch (final IOException e) {
                stderr[0] = e.toString().getBytes(StandardCharsets.UTF_8);
            }
        });
        stderrReader.start();
        final String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("the C program did not finish in 60 s; stdout: " + stdout);
        }
        stderrReader.join(10_000);
        return new ProgramRun(process.exitValue(), stdout, new String(stderr[0], StandardCharsets.UTF_8));
    }

    private record ProgramRun(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\nstdout: " + stdout + "\nstderr: " + stderr;
        }
    }

    @Test
    void theCReaderAcceptsOnlyConsistentRecordsFromAFastJavaWriterAndReadsEveryFieldAsJavaWroteIt() throws Exception {
        final Path path = directory.resolve("mirror");
        final ProgramRun run;
        final long writes;
        try (EstimateMirrorWriter writer = EstimateMirrorWriter.create(path, 60_000)) {
            writer.write(EstimateMirrorTest.boundRecord());
            writer.write(EstimateMirrorTest.averageRecord());
            writer.serverLink(MirrorLayout.SERVER_LINK_POLLING, 1_700_000_000_789L);
            writer.heartbeat(System.currentTimeMillis());
            try (MirrorWriterThread writing = new MirrorWriterThread(writer, FIRST_SLOT, SLOT_COUNT).start()) {
                run = run(path.toString(), Long.toString(ProcessHandle.current().pid()), Integer.toString(FIRST_SLOT),
                    Integer.toString(SLOT_COUNT), Long.toString(READ_DURATION_MILLIS), Long.toString(MAX_ACCEPTED_PER_THREAD));
                writes = writing.stop();
            }
        }
        System.out.println("C reader against the Java writer (" + writes + " writes): " + run.stdout().trim());
        assertEquals(0, run.exitCode(), run::toString);
        final Matcher result = RESULT_LINE.matcher(run.stdout());
        assertTrue(result.find(), run::toString);
        final long accepted = Long.parseLong(result.group(1));
        assertTrue(accepted >= ACCEPTED_FLOOR, "only " + accepted + " accepted reads, floor " + ACCEPTED_FLOOR);
        assertTrue(Long.parseLong(result.group(3)) >= 1000, "the C reader saw fewer than 1000 new writes: " + run);
        assertEquals(2, Integer.parseInt(result.group(6)));
    }

    @Test
    void theCReaderRefusesAnotherVersionAndAShortFileNamingFieldValuesAndPath() throws Exception {
        final Path path = directory.resolve("mirror");
        EstimateMirrorWriter.create(path, 100).close();
        assertEquals(0, run("--open-only", path.toString()).exitCode());

        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 2), MirrorLayout.VERSION_OFFSET);
        }
        final ProgramRun version = run("--open-only", path.toString());
        assertEquals(3, version.exitCode(), version::toString);
        assertTrue(version.stdout().startsWith(path.toString()) && version.stdout().contains("version is 2, expected 1"),
            version::toString);

        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 1), MirrorLayout.VERSION_OFFSET);
            channel.truncate(128 + 1000 * 128);
        }
        final ProgramRun shortFile = run("--open-only", path.toString());
        assertEquals(3, shortFile.exitCode(), shortFile::toString);
        assertTrue(shortFile.stdout().contains("file length is 128128 bytes, expected 4194432 bytes"), shortFile::toString);

        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 64), MirrorLayout.RECORD_LENGTH_OFFSET);
        }
        final ProgramRun recordBytes = run("--open-only", path.toString());
        assertTrue(recordBytes.stdout().contains("record_bytes is 64, expected 128"), recordBytes::toString);
    }

    /** A mirror with the fixed BOUND record in slot 1 and a fresh heartbeat, written and closed. */
    private Path mirrorWithSlotOne() throws IOException {
        final Path path = directory.resolve("mirror");
        try (EstimateMirrorWriter writer = EstimateMirrorWriter.create(path, 60_000)) {
            writer.write(EstimateMirrorTest.boundRecord().indexRef(1));
            writer.heartbeat(System.currentTimeMillis());
        }
        return path;
    }

    private static void assertReadOne(final String expected, final ProgramRun run) {
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(expected, run.stdout().trim(), run::toString);
    }

    @Test
    void theCReaderReportsAFileTruncatedUnderItsMappingInsteadOfDyingOfSigbus() throws Exception {
        final Path path = mirrorWithSlotOne();
        assertReadOne("status=0 alive=1 link=0", run("--read-one", path.toString(), "1"));
        assertReadOne("status=5 alive=0 link=-1", run("--read-one", path.toString(), "1", "0"));
    }

    @Test
    void theCReaderReportsAFileTruncatedInsideTheRecordItReads() throws Exception {
        final Path path = mirrorWithSlotOne();
        final int cut = MirrorLayout.HEADER_LENGTH + MirrorLayout.RECORD_LENGTH + MirrorLayout.INTERVAL_UPPER_OFFSET;
        assertReadOne("status=5 alive=0 link=-1", run("--read-one", path.toString(), "1", Integer.toString(cut)));
    }

    @Test
    void theCReaderReportsAGarbageRecordAsBad() throws Exception {
        final Path path = mirrorWithSlotOne();
        final ByteBuffer record = ByteBuffer.allocate(MirrorLayout.RECORD_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        record.putLong(MirrorLayout.SEQUENCE_OFFSET, 2).putShort(MirrorLayout.INDEX_REF_OFFSET, (short) 999)
            .put(MirrorLayout.QOS_OFFSET, (byte) 77).put(MirrorLayout.KIND_OFFSET, (byte) 9)
            .put(MirrorLayout.FLAGS_OFFSET, (byte) MirrorLayout.FLAG_HAS_ESTIMATE)
            .putDouble(MirrorLayout.VALUE_MILLIS_OFFSET, Double.NaN).putDouble(MirrorLayout.BOUND_PERCENT_OFFSET, 250);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(record, MirrorLayout.recordOffset(1));
        }
        assertReadOne("status=4 alive=1 link=0", run("--read-one", path.toString(), "1"));
        for (final int[] field : new int[][] {{MirrorLayout.INDEX_REF_OFFSET, 1}, {MirrorLayout.QOS_OFFSET, 4},
            {MirrorLayout.KIND_OFFSET, 1}}) {
            final ByteBuffer fixed = ByteBuffer.allocate(2).order(ByteOrder.LITTLE_ENDIAN).putShort(0, (short) field[1]);
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                channel.write(fixed.limit(field[0] == MirrorLayout.INDEX_REF_OFFSET ? 2 : 1),
                    MirrorLayout.recordOffset(1) + field[0]);
            }
            assertReadOne("status=4 alive=1 link=0", run("--read-one", path.toString(), "1"));
        }
    }

    @Test
    void theCReaderTakesAHeartbeatFarInTheFutureForDead() throws Exception {
        final Path path = directory.resolve("mirror");
        try (EstimateMirrorWriter writer = EstimateMirrorWriter.create(path, 60_000)) {
            writer.write(EstimateMirrorTest.boundRecord().indexRef(1));
            writer.heartbeat(System.currentTimeMillis() + (1L << 62));
        }
        assertReadOne("status=3 alive=0 link=0", run("--read-one", path.toString(), "1"));
    }
}
