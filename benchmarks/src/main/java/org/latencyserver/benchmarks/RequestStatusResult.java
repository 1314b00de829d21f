package org.latencyserver.benchmarks;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Base64;
import java.util.Properties;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * What one client JVM of {@link RequestStatusHarness} measured in one round: the round's length,
 * the calls each of its callers completed, the calls that failed, and every round trip's latency
 * (ns) as an HdrHistogram. Written as a properties file whose histogram is HdrHistogram's
 * compressed encoding in base64, so that the harness merges histograms, not printed percentiles.
 *
 * @param seconds the round's length
 * @param calls   calls completed, per caller (or per sending thread in an open-loop round)
 * @param errors  calls that failed with a CORBA system exception
 * @param latency round trips in ns
 */
public record RequestStatusResult(double seconds, long[] calls, long errors, Histogram latency) {

    private static final String FORMAT = "request-status-result/1";

    /** @return the calls all callers completed */
    public long totalCalls() {
        return Arrays.stream(calls).sum();
    }

    /**
     * @param file where to write; replaced atomically
     * @throws IOException when it cannot be written
     */
    public void write(final Path file) throws IOException {
        final Properties properties = new Properties();
        properties.setProperty("format", FORMAT);
        properties.setProperty("seconds", Double.toString(seconds));
        properties.setProperty("calls", String.join(",", Arrays.stream(calls).mapToObj(Long::toString).toList()));
        properties.setProperty("errors", Long.toString(errors));
        final ByteBuffer buffer = ByteBuffer.allocate(latency.getNeededByteBufferCapacity());
        final int length = latency.encodeIntoCompressedByteBuffer(buffer);
        properties.setProperty("latency_ns_hdr_base64", Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)));
        final Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), ".result", ".tmp");
        try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
            properties.store(writer, null);
        }
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * @param file written by {@link #write}
     * @return its contents
     * @throws IOException when it cannot be read or is not such a file
     */
    public static RequestStatusResult read(final Path file) throws IOException {
        final Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        if (!FORMAT.equals(properties.getProperty("format"))) {
            throw new IOException(file + " is not a " + FORMAT + " file");
        }
        final String calls = properties.getProperty("calls", "");
        try {
            return new RequestStatusResult(Double.parseDouble(properties.getProperty("seconds")),
                calls.isEmpty() ? new long[0] : Arrays.stream(calls.split(",")).mapToLong(Long::parseLong).toArray(),
                Long.parseLong(properties.getProperty("errors")),
                Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(properties.getProperty("latency_ns_hdr_base64"))), 0));
        } catch (DataFormatException | RuntimeException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }
}
