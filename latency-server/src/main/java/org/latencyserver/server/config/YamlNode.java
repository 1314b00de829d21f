package org.latencyserver.server.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML document as a small tree that remembers where each value stood (line and column), so
 * that every configuration fault can point at its line. Jackson's own trees forget locations.
 *
 * <p>Immutable after parsing; thread-safe.
 */
final class YamlNode {

    enum Kind { MAP, LIST, SCALAR, NULL }

    private final Kind kind;
    private final int line;
    private final int column;
    private final Map<String, YamlNode> fields;
    private final Map<String, int[]> keyLocations;
    private final List<YamlNode> items;
    private final String text;
    private final JsonToken scalarToken;

    private YamlNode(final Kind kind, final JsonLocation at, final Map<String, YamlNode> fields,
                     final Map<String, int[]> keyLocations, final List<YamlNode> items, final String text,
                     final JsonToken scalarToken) {
        this.kind = kind;
        this.line = at.getLineNr();
        this.column = at.getColumnNr();
        this.fields = fields;
        this.keyLocations = keyLocations;
        this.items = items;
        this.text = text;
        this.scalarToken = scalarToken;
    }

    /**
     * @param yaml the document
     * @return its root
     * @throws IOException with Jackson's location when the YAML is malformed
     */
    static YamlNode parse(final String yaml) throws IOException {
        try (JsonParser parser = new YAMLFactory().createParser(yaml)) {
            final JsonToken first = parser.nextToken();
            if (first == null) {
                return new YamlNode(Kind.NULL, JsonLocation.NA, Map.of(), Map.of(), List.of(), null, null);
            }
            return read(parser);
        }
    }

    private static YamlNode read(final JsonParser parser) throws IOException {
        final JsonLocation at = parser.currentTokenLocation();
        final JsonToken token = parser.currentToken();
        if (token == JsonToken.START_OBJECT) {
            final Map<String, YamlNode> fields = new LinkedHashMap<>();
            final Map<String, int[]> keys = new LinkedHashMap<>();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                final String name = parser.currentName();
                final JsonLocation keyAt = parser.currentTokenLocation();
                parser.nextToken();
                if (fields.containsKey(name)) {
                    throw new IOException("line " + keyAt.getLineNr() + ": duplicate key '" + name + "'");
                }
                keys.put(name, new int[] {keyAt.getLineNr(), keyAt.getColumnNr()});
                fields.put(name, read(parser));
            }
            return new YamlNode(Kind.MAP, at, Collections.unmodifiableMap(fields), keys, List.of(), null, null);
        }
        if (token == JsonToken.START_ARRAY) {
            final List<YamlNode> items = new ArrayList<>();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                items.add(read(parser));
            }
            return new YamlNode(Kind.LIST, at, Map.of(), Map.of(), List.copyOf(items), null, null);
        }
        if (token == JsonToken.VALUE_NULL) {
            return new YamlNode(Kind.NULL, at, Map.of(), Map.of(), List.of(), null, token);
        }
        return new YamlNode(Kind.SCALAR, at, Map.of(), Map.of(), List.of(), parser.getText(), token);
    }

    Kind kind() {
        return kind;
    }

    int line() {
        return line;
    }

    int column() {
        return column;
    }

    Map<String, YamlNode> fields() {
        return fields;
    }

    /** @return line and column of the key {@code name} */
    int[] keyLocation(final String name) {
        return keyLocations.get(name);
    }

    List<YamlNode> items() {
        return items;
    }

    String text() {
        return text;
    }

    boolean isNumber() {
        return scalarToken == JsonToken.VALUE_NUMBER_INT || scalarToken == JsonToken.VALUE_NUMBER_FLOAT;
    }

    boolean isInteger() {
        return scalarToken == JsonToken.VALUE_NUMBER_INT;
    }

    boolean isBoolean() {
        return scalarToken == JsonToken.VALUE_TRUE || scalarToken == JsonToken.VALUE_FALSE;
    }
}
