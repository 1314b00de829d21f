package org.latencyserver.core.input;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * A YAML or JSON document as a small tree that remembers where each key and value stood (1-based
 * line and column), so that every fault can point at its place. Jackson's own {@code JsonNode}
 * trees forget locations, so the tree is built from Jackson's streaming parsers instead, which
 * report locations for YAML and JSON alike.
 *
 * <p>Scalars keep the text exactly as written (so {@code 0x1F} stays {@code "0x1F"}, and a name
 * such as {@code no} is not turned into {@code false}) together with what the parser made of it:
 * text, number or boolean. Numbers are interpreted by the reader, not by YAML, which would read
 * {@code 010} as octal 8.
 *
 * <p>Faults the tree itself can see — a key given twice in one mapping, a YAML alias, malformed
 * text — are reported to the {@link InputFaults} while parsing. A repeated key keeps its first
 * value; an alias becomes an {@link Kind#INVALID} node so that no second fault is reported for
 * it; malformed text ends parsing and yields an {@link Kind#INVALID} root.
 *
 * <p>Immutable after parsing; thread-safe.
 */
public final class InputNode {

    /** The largest YAML document read, in code points: room for a server of 32,767 connections many times over. */
    public static final int YAML_CODE_POINT_LIMIT = 64 * 1024 * 1024;

    /** The longest string {@link #parse(String, InputFormat, InputFaults)} accepts: Jackson's default. */
    public static final int DEFAULT_MAX_STRING_CHARS = StreamReadConstraints.DEFAULT_MAX_STRING_LEN;

    /** What a node is. */
    public enum Kind {
        /** a mapping (a JSON object) of keys to nodes */
        MAP,
        /** a sequence (a JSON array) */
        LIST,
        /** text, a number or a boolean */
        SCALAR,
        /** an explicit null ({@code ~}, {@code null}) or a key with no value */
        NULL,
        /** something already reported as a fault (an alias, malformed text); readers ignore it */
        INVALID
    }

    /** What the parser made of a scalar. */
    public enum ScalarType {
        /** a string, quoted or not */
        TEXT,
        /** an integer or decimal number, including NaN and Infinity in JSON */
        NUMBER,
        /** true or false (YAML 1.1 also: yes/no, on/off) */
        BOOLEAN
    }

    private final Kind kind;
    private final int line;
    private final int column;
    private final Map<String, InputNode> fields;
    private final Map<String, int[]> keyLocations;
    private final List<InputNode> items;
    private final String text;
    private final ScalarType scalarType;
    private final boolean booleanValue;
    /** Whether the parser read a number as an integer token (no fraction, no exponent). */
    private final boolean integral;

    private InputNode(final Kind kind, final int line, final int column, final Map<String, InputNode> fields,
                      final Map<String, int[]> keyLocations, final List<InputNode> items, final String text,
                      final ScalarType scalarType, final boolean booleanValue, final boolean integral) {
        this.kind = kind;
        this.line = line;
        this.column = column;
        this.fields = fields;
        this.keyLocations = keyLocations;
        this.items = items;
        this.text = text;
        this.scalarType = scalarType;
        this.booleanValue = booleanValue;
        this.integral = integral;
    }

    private static InputNode leaf(final Kind kind, final int line, final int column, final String text, final ScalarType type,
                                  final boolean booleanValue) {
        return new InputNode(kind, line, column, Map.of(), Map.of(), List.of(), text, type, booleanValue, false);
    }

    private static InputNode leaf(final Kind kind, final JsonLocation at, final String text, final ScalarType type,
                                  final boolean booleanValue) {
        return leaf(kind, at.getLineNr(), at.getColumnNr(), text, type, booleanValue);
    }

    /**
     * Parses one document, with strings up to {@link #DEFAULT_MAX_STRING_CHARS} characters.
     *
     * @see #parse(String, InputFormat, int, InputFaults)
     */
    public static InputNode parse(final String text, final InputFormat format, final InputFaults faults) {
        return parse(text, format, DEFAULT_MAX_STRING_CHARS, faults);
    }

    /**
     * Parses one document.
     *
     * @param text           the document
     * @param format         its syntax
     * @param maxStringChars the longest string it may hold; a longer one is a fault ("a value too long"),
     *                       found before the parser buffers it
     * @param faults         where repeated keys, aliases and malformed text are reported; paths are
     *                       built as readers build them ({@code nodes[1].name}), {@code file} for the
     *                       document as a whole
     * @return the root; a {@link Kind#NULL} node at line 0 for an empty document; an
     *         {@link Kind#INVALID} node (the fault reported, at the place of the problem) when the
     *         text is malformed or holds a second document
     */
    public static InputNode parse(final String text, final InputFormat format, final int maxStringChars,
                                  final InputFaults faults) {
        final StreamReadConstraints constraints = StreamReadConstraints.builder().maxStringLength(maxStringChars).build();
        try (JsonParser parser = factory(format, constraints).createParser(text)) {
            if (parser.nextToken() == null) {
                return leaf(Kind.NULL, 0, 0, null, null, false);
            }
            final InputNode root = read(parser, "", faults);
            final JsonToken after = parser.nextToken();
            if (after != null) {
                final JsonLocation at = parser.currentTokenLocation();
                faults.add(at.getLineNr(), at.getColumnNr(), "file", format.syntaxFaultPrefix() + (format == InputFormat.YAML
                    ? "a second YAML document ('---'); the file holds one document"
                    : "Trailing token '" + parser.getText() + "' after the document; the file holds one document"));
                return leaf(Kind.INVALID, at, null, null, false);
            }
            return root;
        } catch (StreamConstraintsException e) {
            final JsonLocation at = e.getLocation();
            faults.add(at == null ? 0 : at.getLineNr(), at == null ? 0 : Math.max(0, at.getColumnNr()), "file",
                "a value too long: " + withoutConstraintSource(e.getOriginalMessage()));
        } catch (JsonProcessingException e) {
            SyntaxProblem.of(e).report(format.syntaxFaultPrefix(), faults);
        } catch (IOException e) {
            // Reading from a String: only a parser failure can get here.
            faults.whole(format.syntaxFaultPrefix() + e.getMessage());
        }
        return leaf(Kind.INVALID, 0, 0, null, null, false);
    }

    private static JsonFactory factory(final InputFormat format, final StreamReadConstraints constraints) {
        return switch (format) {
            case YAML -> YAMLFactory.builder().streamReadConstraints(constraints).loaderOptions(yamlLoaderOptions()).build();
            // NaN and Infinity parse, so that validation can name the field instead of a parse error.
            case JSON -> JsonFactory.builder().streamReadConstraints(constraints)
                .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
        };
    }

    /**
     * SnakeYAML, under Jackson's YAML parser, refuses a document of more than 3 Mi code points by
     * default: a configuration of about 17,000 connections. A server may hold 32,767 (the IDL's
     * {@code short} index_ref), about 6 MB of YAML, so the limit is raised to
     * {@value #YAML_CODE_POINT_LIMIT} code points, the order of the 64 MiB a profile may have.
     */
    private static LoaderOptions yamlLoaderOptions() {
        final LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(YAML_CODE_POINT_LIMIT);
        return options;
    }

    private static InputNode read(final JsonParser parser, final String path, final InputFaults faults) throws IOException {
        final JsonLocation at = parser.currentTokenLocation();
        final JsonToken token = parser.currentToken();
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            // Jackson does not resolve aliases: it would hand us the anchor's name as a string.
            faults.add(at.getLineNr(), at.getColumnNr(), path.isEmpty() ? "file" : path,
                "YAML aliases ('*" + parser.getText() + "') are not supported: write the value out");
            if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
                parser.skipChildren();
            }
            return leaf(Kind.INVALID, at, null, null, false);
        }
        if (token == JsonToken.START_OBJECT) {
            final Map<String, InputNode> fields = new LinkedHashMap<>();
            final Map<String, int[]> keys = new LinkedHashMap<>();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                final String name = parser.currentName();
                final JsonLocation keyAt = parser.currentTokenLocation();
                parser.nextToken();
                final String childPath = path.isEmpty() ? name : path + "." + name;
                final InputNode value = read(parser, childPath, faults);
                if (fields.containsKey(name)) {
                    faults.add(keyAt.getLineNr(), keyAt.getColumnNr(), childPath, "key '" + name
                        + "' is given twice in one mapping (first at line " + keys.get(name)[0] + "); keep one");
                    continue;
                }
                keys.put(name, new int[] {keyAt.getLineNr(), keyAt.getColumnNr()});
                fields.put(name, value);
            }
            return new InputNode(Kind.MAP, at.getLineNr(), at.getColumnNr(), Collections.unmodifiableMap(fields),
                Collections.unmodifiableMap(keys), List.of(), null, null, false, false);
        }
        if (token == JsonToken.START_ARRAY) {
            final List<InputNode> items = new ArrayList<>();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                items.add(read(parser, path + "[" + items.size() + "]", faults));
            }
            return new InputNode(Kind.LIST, at.getLineNr(), at.getColumnNr(), Map.of(), Map.of(), List.copyOf(items), null,
                null, false, false);
        }
        return switch (token) {
            case VALUE_NULL -> leaf(Kind.NULL, at, null, null, false);
            case VALUE_TRUE, VALUE_FALSE -> leaf(Kind.SCALAR, at, parser.getText(), ScalarType.BOOLEAN,
                token == JsonToken.VALUE_TRUE);
            case VALUE_NUMBER_INT -> new InputNode(Kind.SCALAR, at.getLineNr(), at.getColumnNr(), Map.of(), Map.of(), List.of(),
                parser.getText(), ScalarType.NUMBER, false, true);
            case VALUE_NUMBER_FLOAT -> leaf(Kind.SCALAR, at, parser.getText(), ScalarType.NUMBER, false);
            default -> leaf(Kind.SCALAR, at, parser.getText(), ScalarType.TEXT, false);
        };
    }

    /** Jackson's constraint messages end in "(..., from `StreamReadConstraints...`)": the limit is kept, the API name not. */
    private static String withoutConstraintSource(final String message) {
        return message == null ? "" : message.replaceAll(", from `[^`]*`", "");
    }

    /** @return what the node is */
    public Kind kind() {
        return kind;
    }

    /** @return 1-based line of the value (of its first key, for a YAML block mapping); 0 for an empty document */
    public int line() {
        return line;
    }

    /** @return 1-based column; 0 for an empty document */
    public int column() {
        return column;
    }

    /** @return a mapping's entries in file order (a repeated key keeps its first value); empty for other kinds */
    public Map<String, InputNode> fields() {
        return fields;
    }

    /** @return line and column of the key {@code name} in this mapping, or null when it has no such key */
    public int[] keyLocation(final String name) {
        final int[] at = keyLocations.get(name);
        return at == null ? null : at.clone();
    }

    /** @return a sequence's items; empty for other kinds */
    public List<InputNode> items() {
        return items;
    }

    /** @return a scalar's text exactly as written (without quotes), null for other kinds */
    public String text() {
        return text;
    }

    /** @return what the parser made of a scalar; null for other kinds */
    public ScalarType scalarType() {
        return scalarType;
    }

    /** @return a boolean scalar's value */
    public boolean booleanValue() {
        return booleanValue;
    }

    /**
     * @return a number scalar's value; NaN and the infinities as JSON readers accept them
     *         ({@code NaN}, {@code Infinity}, {@code INF}, either signed)
     * @throws IllegalStateException when this is no number
     */
    public double doubleValue() {
        if (!isNumber()) {
            throw new IllegalStateException("not a number: " + describe());
        }
        if (text.endsWith("INF") || text.endsWith("Infinity")) {
            return text.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return "NaN".equals(text) ? Double.NaN : Double.parseDouble(text);
    }

    /**
     * @return whether this is a number the parser read as an integer: no fraction, no exponent (in
     *         JSON always decimal digits; YAML also reads {@code 0x1F} and {@code 010} as integers)
     */
    public boolean isIntegral() {
        return integral;
    }

    /** @return whether this is a scalar the parser read as a number */
    public boolean isNumber() {
        return kind == Kind.SCALAR && scalarType == ScalarType.NUMBER;
    }

    /** @return whether this is a scalar the parser read as text (a string) */
    public boolean isText() {
        return kind == Kind.SCALAR && scalarType == ScalarType.TEXT;
    }

    /** @return how the value reads in a fault message: the text in quotes, or what kind of node it is */
    public String describe() {
        return switch (kind) {
            case MAP -> "a mapping";
            case LIST -> "a list";
            case NULL -> "empty";
            case INVALID -> "invalid";
            case SCALAR -> "'" + text + "'";
        };
    }
}
