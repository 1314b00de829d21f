package org.latencyserver.core.profile;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.histogram.LatencyHistogramJson;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.port.MeasuredTablePortModel;
import org.latencyserver.core.port.PortModel;

/**
 * Reads and writes profiles as JSON (format {@value #FORMAT}, or {@value #FORMAT_WITH_PORT_CELLS} for a
 * profile that carries measured port cells, which a profile without them is never written as; the
 * JSON Schema in {@code profiles/schema/latency-profile.schema.json} documents both).
 *
 * <p>Reading validates everything and reports <em>every</em> fault with the file, the line and
 * column, the key path — the cell is named by its CPU pair and size, not only its index — and the
 * reason with the bad value: unknown or missing fields, wrong types, NaN or out-of-range numbers, histograms whose
 * edges are out of order or whose counts do not add up, missing or duplicate cells, repeated
 * keys, units other than ms and ns, and malformed or truncated JSON (with its line and column). A profile with any
 * fault is refused whole. A text larger than {@link ProfileLimits#maxBytes()} is refused before it
 * is parsed, a histogram with more than {@link ProfileLimits#maxHistogramBins()} bins before it
 * is built.
 *
 * <p>Writing is deterministic (fields in a fixed order) and atomic (a temporary file in the same
 * directory, then a rename), so a reader never sees half a profile.
 *
 * <p>Stateless and thread-safe.
 */
public final class ProfileJson {

    /** The format tag every profile carries. */
    public static final String FORMAT = "latency-profile/1";

    /** The format of a profile that carries measured port cells ({@code port_cells}); a reader of it reads both. */
    public static final String FORMAT_WITH_PORT_CELLS = "latency-profile/2";

    /**
     * The longest string a profile may hold. Its strings are names and provenance notes; a longer one
     * is damage, and refusing it early keeps the parser from buffering it.
     */
    static final int MAX_STRING_CHARS = 100_000;

    /** Writes profiles; reading goes through {@link InputNode}, which keeps every value's line and column. */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .build();

    private ProfileJson() {
    }

    /**
     * Reads a profile file within the {@linkplain ProfileLimits#DEFAULT default limits}.
     *
     * @param file a profile file
     * @return the validated profile
     * @throws ProfileValidationException with every fault, including an unreadable file
     */
    public static Profile read(final Path file) throws ProfileValidationException {
        return read(file, ProfileLimits.DEFAULT);
    }

    /**
     * @param file   a profile file
     * @param limits its largest size (checked before it is read) and histograms
     * @return the validated profile
     * @throws ProfileValidationException with every fault, including an unreadable or too large file
     */
    public static Profile read(final Path file, final ProfileLimits limits) throws ProfileValidationException {
        final String text;
        try {
            final long bytes = Files.size(file);
            if (bytes > limits.maxBytes()) {
                throw new ProfileValidationException(List.of(tooLarge(file.toString(), bytes, limits)), true);
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new ProfileValidationException(List.of(new InputFault(file.toString(), 0, 0, "file",
                "cannot be read: " + describe(e))));
        }
        return parse(text, file.toString(), limits);
    }

    /**
     * Parses a profile within the {@linkplain ProfileLimits#DEFAULT default limits}.
     *
     * @param json       the profile's JSON text
     * @param sourceName named in every fault (a file name, or e.g. "profile from load_profile")
     * @return the validated profile
     * @throws ProfileValidationException with every fault
     */
    public static Profile parse(final String json, final String sourceName) throws ProfileValidationException {
        return parse(json, sourceName, ProfileLimits.DEFAULT);
    }

    /**
     * @param json       the profile's JSON text
     * @param sourceName named in every fault (a file name, or e.g. "profile from load_profile")
     * @param limits     its largest size in UTF-8 bytes (checked before parsing) and histograms
     * @return the validated profile
     * @throws ProfileValidationException with every fault
     */
    public static Profile parse(final String json, final String sourceName, final ProfileLimits limits)
        throws ProfileValidationException {
        final String text = json == null ? "" : json;
        final long bytes = utf8Length(text);
        if (bytes > limits.maxBytes()) {
            throw new ProfileValidationException(List.of(tooLarge(sourceName, bytes, limits)), true);
        }
        final InputFaults faults = new InputFaults(sourceName);
        final InputNode root = InputNode.parse(text, InputFormat.JSON, MAX_STRING_CHARS, faults);
        if (root.kind() == InputNode.Kind.NULL) {
            faults.whole("is empty");
        }
        if (root.kind() == InputNode.Kind.MAP || faults.isEmpty()) {
            // Repeated keys are reported while parsing, and the reader goes on to find the rest.
            final Profile profile = new ProfileReader(faults, limits.maxHistogramBins()).read(root);
            if (faults.isEmpty() && profile != null) {
                return profile;
            }
        }
        throw new ProfileValidationException(faults.isEmpty()
            ? List.of(new InputFault(sourceName, 0, 0, "$", "not a valid profile")) : faults.inOrderFound(), faults.allOverSizeLimit());
    }

    /**
     * @param profile a profile
     * @return its JSON text, fields in a fixed order, ending in a newline
     */
    public static String toJson(final Profile profile) {
        final ObjectNode root = MAPPER.createObjectNode();
        root.put("format", profile.portCells().isEmpty() ? FORMAT : FORMAT_WITH_PORT_CELLS);
        root.put("name", profile.name());
        root.put("workstation_type", profile.workstationType());
        root.put("layer", profile.layer().name());
        final ObjectNode units = root.putObject("units");
        units.put("latency", "ms");
        units.put("histogram_edges", "ns");
        putProvenance(root.putObject("provenance"), profile.provenance());
        if (profile.assumptions() != null) {
            putAssumptions(root.putObject("assumptions"), profile.assumptions());
        }
        putPortModel(root.putObject("port_model"), profile.portModel());
        putCells(root.putArray("cells"), profile.cells());
        if (!profile.portCells().isEmpty()) {
            putPortCells(root.putArray("port_cells"), profile.portCells());
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    private static void putProvenance(final ObjectNode provenance, final Provenance p) {
        provenance.put("source", p.source());
        putIfPresent(provenance, "hardware", p.hardware());
        putIfPresent(provenance, "orb", p.orb());
        putIfPresent(provenance, "operating_system", p.operatingSystem());
        putIfPresent(provenance, "measured_on", p.measuredOn());
        putIfPresent(provenance, "method", p.method());
    }

    private static void putAssumptions(final ObjectNode assumptions, final ProfileAssumptions given) {
        if (given.assumedStdDevMillis() != null) {
            assumptions.put("std_dev_ms", given.assumedStdDevMillis());
        }
        putIfPresent(assumptions, "note", given.note());
    }

    private static void putPortModel(final ObjectNode portModel, final PortModel model) {
        portModel.put("kind", model.kind());
        if (model instanceof MeasuredTablePortModel) {
            final ArrayNode rows = portModel.putArray("rows");
            for (final MeasuredTablePortModel.Row row : ((MeasuredTablePortModel) model).rows()) {
                final ObjectNode r = rows.addObject();
                r.put("message_size_bytes", row.messageSizeBytes());
                r.put("port_load_percent", row.portLoadPercent());
                r.put("avg_round_trip_us", row.avgRoundTripMicros());
            }
        }
    }

    private static void putCells(final ArrayNode cells, final List<ProfileCell> profileCells) {
        for (final ProfileCell cell : profileCells) {
            final ObjectNode c = cells.addObject();
            final ArrayNode cpu = c.putArray("cpu");
            cpu.add(cell.cpuStates().client().thesisLabel());
            cpu.add(cell.cpuStates().peer().thesisLabel());
            c.put("message_size_bytes", cell.messageSizeBytes());
            putSample(c, cell.sampleCount(), cell.meanMillis(), cell.stdDevMillis(), cell.maxMillis(), cell.histogram());
        }
    }

    private static void putPortCells(final ArrayNode portCells, final List<PortCell> profilePortCells) {
        for (final PortCell cell : profilePortCells) {
            final ObjectNode c = portCells.addObject();
            final ArrayNode band = c.putArray("port_percent");
            band.add(cell.lowestPercent());
            band.add(cell.highestPercent());
            c.put("message_size_bytes", cell.messageSizeBytes());
            putSample(c, cell.sampleCount(), cell.meanMillis(), cell.stdDevMillis(), cell.maxMillis(), cell.histogram());
        }
    }

    /**
     * Writes atomically: a temporary file beside {@code file}, then a rename over it. The file
     * keeps the permissions it had; a new file is readable by everyone ({@code rw-r--r--}), since
     * a profile is shared data and the server may run as another user.
     *
     * @param profile the profile
     * @param file    where to write
     * @throws IOException when the file cannot be written; {@code file} is then unchanged
     */
    public static void write(final Profile profile, final Path file) throws IOException {
        final Path absolute = file.toAbsolutePath();
        final Path directory = absolute.getParent();
        Files.createDirectories(directory);
        final Path temporary = Files.createTempFile(directory, "." + absolute.getFileName(), ".tmp");
        try {
            Files.writeString(temporary, toJson(profile), StandardCharsets.UTF_8);
            keepPermissions(absolute, temporary);
            Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** A temporary file is created owner-only; give it the target's permissions instead. */
    private static void keepPermissions(final Path target, final Path temporary) throws IOException {
        final PosixFileAttributeView view = Files.getFileAttributeView(temporary, PosixFileAttributeView.class);
        if (view == null) {
            return;
        }
        final Set<PosixFilePermission> permissions = Files.exists(target)
            ? Files.getPosixFilePermissions(target) : PosixFilePermissions.fromString("rw-r--r--");
        view.setPermissions(permissions);
    }


    private static InputFault tooLarge(final String sourceName, final long bytes, final ProfileLimits limits) {
        return new InputFault(sourceName, 0, 0, "file", "is " + bytes + " bytes, more than the limit of " + limits.maxBytes()
            + " bytes for a profile");
    }

    /** The text's length in UTF-8 bytes (a lone surrogate counts as the 3 bytes of its replacement). */
    private static long utf8Length(final String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** A cell's sample: n, mean, standard deviation (when published), max and histogram (when published). */
    private static void putSample(final ObjectNode cell, final long n, final double meanMillis, final Double stdDevMillis,
                                  final double maxMillis, final LatencyHistogram histogram) {
        cell.put("n", n);
        cell.put("mean_ms", meanMillis);
        if (stdDevMillis != null) {
            cell.put("std_dev_ms", stdDevMillis);
        }
        cell.put("max_ms", maxMillis);
        if (histogram != null) {
            putHistogram(cell, histogram);
        }
    }

    private static void putHistogram(final ObjectNode cell, final LatencyHistogram h) {
        LatencyHistogramJson.write(cell.putObject("histogram"), h);
    }

    private static void putIfPresent(final ObjectNode node, final String field, final String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    private static String describe(final Exception e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
