package org.latencyserver.server.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML document as a small tree that remembers where each key and value stood (1-based line
 * and column), so that every configuration fault can point at its line. Jackson's own
 * {@code JsonNode} trees forget locations, so the tree is built from Jackson's streaming YAML
 * parser instead.
 *
 * <p>Scalars keep the text exactly as written (so {@code 0x1F} stays {@code "0x1F"}, and a name
 * such as {@code no} is not turned into {@code false}) together with what YAML made of it:
 * text, number or boolean. Numbers are interpreted by the loader, not by YAML, which would read
 * {@code 010} as octal 8.
 *
 * <p>Faults the tree itself can see — a key given twice in one mapping, an alias — are reported
 * to the {@link FaultCollector} while parsing, and the node is marked {@link Kind#INVALID} so
 * that no second fault is reported for it. Malformed YAML stops parsing with a
 * {@link YamlSyntaxException}.
 *
 * <p>Immutable after parsing; thread-safe.
 */
final class YamlNode {

    /** What a node is. */
    enum Kind {
        /** a mapping of keys to nodes */
        MAP,
        /** a sequence */
        LIST,
        /** text, a number or a boolean */
        SCALAR,
        /** an explicit null ({@code ~}, {@code null}) or a key with no value */
        NULL,
        /** something already reported as a fault (an alias); ignored by the loader */
        INVALID
    }

    /** What YAML made of a scalar. */
    enum ScalarType { TEXT, NUMBER, BOOLEAN }

    private final Kind kind;
    private final int line;
    private final int column;
    private final Map<String, YamlNode> fields;
    private final Map<String, int[]> keyLocations;
    private final List<YamlNode> items;
    private final String text;
    private final ScalarType scalarType;
    private final boolean booleanValue;

    private YamlNode(final Kind kind, final int line, final int column, final Map<String, YamlNode> fields,
                     final Map<String, int[]> keyLocations, final List<YamlNode> items, final String text,
                     final ScalarType scalarType, final boolean booleanValue) {
        this.kind = kind;
        this.line = line;
        this.column = column;
        this.fields = fields;
        this.keyLocations = keyLocations;
        this.items = items;
        this.text = text;
        this.scalarType = scalarType;
        this.booleanValue = booleanValue;
    }

    private static YamlNode leaf(final Kind kind, final JsonLocation at, final String text, final ScalarType type,
                                 final boolean booleanValue) {
        return new YamlNode(kind, at.getLineNr(), at.getColumnNr(), Map.of(), Map.of(), List.of(), text, type, booleanValue);
    }

    /**
     * Parses one YAML document.
     *
     * @param yaml   the document
     * @param faults where duplicate keys and aliases are reported; paths are built like the
     *               loader's ({@code nodes[1].name})
     * @return the root; a {@link Kind#NULL} node at line 0 for an empty document
     * @throws YamlSyntaxException when the YAML is malformed, with the line and column of the problem
     */
    static YamlNode parse(final String yaml, final FaultCollector faults) throws YamlSyntaxException {
        try (JsonParser parser = new YAMLFactory().createParser(yaml)) {
            if (parser.nextToken() == null) {
                return new YamlNode(Kind.NULL, 0, 0, Map.of(), Map.of(), List.of(), null, null, false);
            }
            final YamlNode root = read(parser, "", faults);
            if (parser.nextToken() != null) {
                final JsonLocation at = parser.currentTokenLocation();
                throw new YamlSyntaxException(at.getLineNr(), at.getColumnNr(),
                    "a second YAML document ('---'); the configuration is one document");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw YamlSyntaxException.from(e);
        } catch (IOException e) {
            // Reading from a String: only a parser failure can get here.
            throw new YamlSyntaxException(0, 0, String.valueOf(e.getMessage()));
        }
    }

    private static YamlNode read(final JsonParser parser, final String path, final FaultCollector faults) throws IOException {
        final JsonLocation at = parser.currentTokenLocation();
        final JsonToken token = parser.currentToken();
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            // Jackson does not resolve aliases: it would hand us the anchor's name as a string.
            faults.add(at.getLineNr(), at.getColumnNr(), path.isEmpty() ? "file" : path,
                "YAML aliases ('*" + parser.getText() + "') are not supported: write the value out");
            skipValue(parser);
            return leaf(Kind.INVALID, at, null, null, false);
        }
        if (token == JsonToken.START_OBJECT) {
            final Map<String, YamlNode> fields = new LinkedHashMap<>();
            final Map<String, int[]> keys = new LinkedHashMap<>();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                final String name = parser.currentName();
                final JsonLocation keyAt = parser.currentTokenLocation();
                parser.nextToken();
                final String childPath = path.isEmpty() ? name : path + "." + name;
                final YamlNode value = read(parser, childPath, faults);
                if (fields.containsKey(name)) {
                    faults.add(keyAt.getLineNr(), keyAt.getColumnNr(), childPath, "key '" + name
                        + "' is given twice in one mapping (first at line " + keys.get(name)[0] + "); keep one");
                    continue;
                }
                keys.put(name, new int[] {keyAt.getLineNr(), keyAt.getColumnNr()});
                fields.put(name, value);
            }
            return new YamlNode(Kind.MAP, at.getLineNr(), at.getColumnNr(), Collections.unmodifiableMap(fields),
                Collections.unmodifiableMap(keys), List.of(), null, null, false);
        }
        if (token == JsonToken.START_ARRAY) {
            final List<YamlNode> items = new ArrayList<>();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                items.add(read(parser, path + "[" + items.size() + "]", faults));
            }
            return new YamlNode(Kind.LIST, at.getLineNr(), at.getColumnNr(), Map.of(), Map.of(), List.copyOf(items), null,
                null, false);
        }
        return switch (token) {
            case VALUE_NULL -> leaf(Kind.NULL, at, null, null, false);
            case VALUE_TRUE, VALUE_FALSE -> leaf(Kind.SCALAR, at, parser.getText(), ScalarType.BOOLEAN,
                token == JsonToken.VALUE_TRUE);
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> leaf(Kind.SCALAR, at, parser.getText(), ScalarType.NUMBER, false);
            default -> leaf(Kind.SCALAR, at, parser.getText(), ScalarType.TEXT, false);
        };
    }

    private static void skipValue(final JsonParser parser) throws IOException {
        if (parser.currentToken() == JsonToken.START_OBJECT || parser.currentToken() == JsonToken.START_ARRAY) {
            parser.skipChildren();
        }
    }

    Kind kind() {
        return kind;
    }

    /** @return 1-based line of the value (of its first key, for a block mapping) */
    int line() {
        return line;
    }

    /** @return 1-based column */
    int column() {
        return column;
    }

    /** @return a mapping's entries in file order; empty for other kinds */
    Map<String, YamlNode> fields() {
        return fields;
    }

    /** @return line and column of the key {@code name} in this mapping */
    int[] keyLocation(final String name) {
        return keyLocations.get(name);
    }

    /** @return a sequence's items; empty for other kinds */
    List<YamlNode> items() {
        return items;
    }

    /** @return a scalar's text exactly as written (without quotes), null for other kinds */
    String text() {
        return text;
    }

    /** @return what YAML made of a scalar; null for other kinds */
    ScalarType scalarType() {
        return scalarType;
    }

    /** @return a boolean scalar's value (YAML 1.1: true/false, yes/no, on/off) */
    boolean booleanValue() {
        return booleanValue;
    }

    /** @return how the value reads in a fault message: the text in quotes, or what kind of node it is */
    String describe() {
        return switch (kind) {
            case MAP -> "a mapping";
            case LIST -> "a list";
            case NULL -> "empty";
            case INVALID -> "invalid";
            case SCALAR -> "'" + text + "'";
        };
    }
}
