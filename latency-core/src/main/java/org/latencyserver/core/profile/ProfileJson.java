package org.latencyserver.core.profile;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.port.MeasuredTablePortModel;

/**
 * Reads and writes profiles as JSON (format {@value #FORMAT}; the JSON Schema in
 * {@code profiles/schema/latency-profile.schema.json} documents it).
 *
 * <p>Reading validates everything and reports <em>every</em> fault with the file, the place —
 * the cell is named by its CPU pair and size, not only its index — and the reason with the bad
 * value: unknown or missing fields, wrong types, NaN or out-of-range numbers, histograms whose
 * edges are out of order or whose counts do not add up, missing or duplicate cells, units other
 * than ms and ns, and malformed or truncated JSON (with its line and column). A profile with any
 * fault is refused whole.
 *
 * <p>Writing is deterministic (fields in a fixed order) and atomic (a temporary file in the same
 * directory, then a rename), so a reader never sees half a profile.
 *
 * <p>Stateless and thread-safe.
 */
public final class ProfileJson {

    /** The format tag every profile carries. */
    public static final String FORMAT = "latency-profile/1";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
        // A second document or stray text after the profile is a damaged file, not something to ignore.
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        // NaN and Infinity parse, so that validation can name the field instead of a parse error.
        .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .enable(SerializationFeature.INDENT_OUTPUT)
        .build();

    private ProfileJson() {
    }

    /**
     * @param file a profile file
     * @return the validated profile
     * @throws ProfileValidationException with every fault, including an unreadable file
     */
    public static Profile read(final Path file) throws ProfileValidationException {
        final String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new ProfileValidationException(List.of(new ProfileFault(file.toString(), "file",
                "cannot be read: " + describe(e))));
        }
        return parse(text, file.toString());
    }

    /**
     * @param json       the profile's JSON text
     * @param sourceName named in every fault (a file name, or e.g. "profile from load_profile")
     * @return the validated profile
     * @throws ProfileValidationException with every fault
     */
    public static Profile parse(final String json, final String sourceName) throws ProfileValidationException {
        final JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            final String where = e.getLocation() == null ? "JSON"
                : "line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new ProfileValidationException(List.of(new ProfileFault(sourceName, where,
                "malformed or truncated JSON: " + withoutSourceDescription(e.getOriginalMessage()))));
        }
        if (root == null || root.isMissingNode()) {
            throw new ProfileValidationException(List.of(new ProfileFault(sourceName, "file", "is empty")));
        }
        final List<ProfileFault> faults = new ArrayList<>();
        final Profile profile = new ProfileReader(sourceName, faults).read(root);
        if (!faults.isEmpty() || profile == null) {
            throw new ProfileValidationException(faults.isEmpty()
                ? List.of(new ProfileFault(sourceName, "$", "not a valid profile")) : faults);
        }
        return profile;
    }

    /**
     * @param profile a profile
     * @return its JSON text, fields in a fixed order, ending in a newline
     */
    public static String toJson(final Profile profile) {
        final ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("name", profile.name());
        root.put("workstation_type", profile.workstationType());
        root.put("layer", profile.layer().name());
        final ObjectNode units = root.putObject("units");
        units.put("latency", "ms");
        units.put("histogram_edges", "ns");
        final ObjectNode provenance = root.putObject("provenance");
        final Provenance p = profile.provenance();
        provenance.put("source", p.source());
        putIfPresent(provenance, "hardware", p.hardware());
        putIfPresent(provenance, "orb", p.orb());
        putIfPresent(provenance, "operating_system", p.operatingSystem());
        putIfPresent(provenance, "measured_on", p.measuredOn());
        putIfPresent(provenance, "method", p.method());
        if (profile.assumptions() != null) {
            final ObjectNode assumptions = root.putObject("assumptions");
            if (profile.assumptions().assumedStdDevMillis() != null) {
                assumptions.put("std_dev_ms", profile.assumptions().assumedStdDevMillis());
            }
            putIfPresent(assumptions, "note", profile.assumptions().note());
        }
        final ObjectNode portModel = root.putObject("port_model");
        portModel.put("kind", profile.portModel().kind());
        if (profile.portModel() instanceof MeasuredTablePortModel) {
            final ArrayNode rows = portModel.putArray("rows");
            for (final MeasuredTablePortModel.Row row : ((MeasuredTablePortModel) profile.portModel()).rows()) {
                final ObjectNode r = rows.addObject();
                r.put("message_size_bytes", row.messageSizeBytes());
                r.put("port_load_percent", row.portLoadPercent());
                r.put("avg_round_trip_us", row.avgRoundTripMicros());
            }
        }
        final ArrayNode cells = root.putArray("cells");
        for (final ProfileCell cell : profile.cells()) {
            final ObjectNode c = cells.addObject();
            final ArrayNode cpu = c.putArray("cpu");
            cpu.add(cell.cpuStates().client().thesisLabel());
            cpu.add(cell.cpuStates().peer().thesisLabel());
            c.put("message_size_bytes", cell.messageSizeBytes());
            c.put("n", cell.sampleCount());
            c.put("mean_ms", cell.meanMillis());
            if (cell.stdDevMillis() != null) {
                c.put("std_dev_ms", cell.stdDevMillis());
            }
            c.put("max_ms", cell.maxMillis());
            if (cell.histogram() != null) {
                final LatencyHistogram h = cell.histogram();
                final ObjectNode histogram = c.putObject("histogram");
                final ArrayNode edges = histogram.putArray("upper_edges_ns");
                final ArrayNode counts = histogram.putArray("counts");
                for (int i = 0; i < h.binCount(); i++) {
                    edges.add(h.upperEdgeNanos(i));
                    counts.add(h.count(i));
                }
                histogram.put("overflow", h.overflowCount());
            }
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
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


    /** Jackson names its input "[Source: REDACTED ...; line: 1, column: 1]"; keep only the position. */
    private static String withoutSourceDescription(final String message) {
        return message == null ? "" : message.replaceAll("\\[Source: .*?; line: (\\d+), column: (\\d+)\\]", "line $1, column $2");
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
