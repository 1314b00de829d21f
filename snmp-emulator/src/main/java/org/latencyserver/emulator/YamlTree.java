package org.latencyserver.emulator;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal YAML document tree that remembers where every value was written, so that
 * validation faults can name the line and column. Jackson's own tree drops locations.
 *
 * <p>Instances are immutable after {@link #parse} and thread-safe.
 */
final class YamlTree {

    /** A node of the tree: a map, a list or a scalar, with its 1-based position. */
    sealed interface Node permits MapNode, ListNode, Scalar {
        int line();

        int column();

        /** @return a short rendering of the node for fault messages */
        String shown();
    }

    /** A mapping; keys keep their written order. Each key remembers its own position. */
    record MapNode(int line, int column, Map<String, Node> entries, Map<String, int[]> keyPositions)
            implements Node {
        @Override
        public String shown() {
            return "{" + String.join(", ", entries.keySet()) + "}";
        }
    }

    /** A sequence. */
    record ListNode(int line, int column, List<Node> items) implements Node {
        @Override
        public String shown() {
            return "[list of " + items.size() + "]";
        }
    }

    /** A scalar as written; {@code numeric} tells whether YAML read it as a number. */
    record Scalar(int line, int column, String text, boolean numeric, boolean bool) implements Node {
        @Override
        public String shown() {
            return text;
        }
    }

    private YamlTree() {
    }

    /**
     * Parses one YAML document.
     *
     * @param fileLabel the file name used in faults
     * @throws ScenarioFault on a syntax error, a duplicate key or an empty document
     */
    static Node parse(Reader reader, String fileLabel) throws ScenarioFault {
        try (JsonParser parser = new YAMLFactory().createParser(reader)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new ScenarioFault(fileLabel, 1, 1, null, "the scenario file is empty");
            }
            return read(parser, fileLabel);
        } catch (JsonProcessingException e) {
            var loc = e.getLocation();
            throw new ScenarioFault(fileLabel, loc == null ? 0 : loc.getLineNr(),
                    loc == null ? 0 : loc.getColumnNr(), null, "not valid YAML: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new ScenarioFault(fileLabel, 0, 0, null, "cannot read: " + e.getMessage());
        }
    }

    private static Node read(JsonParser p, String fileLabel) throws IOException, ScenarioFault {
        var loc = p.currentTokenLocation();
        int line = loc.getLineNr();
        int column = loc.getColumnNr();
        JsonToken token = p.currentToken();
        switch (token) {
            case START_OBJECT: {
                Map<String, Node> entries = new LinkedHashMap<>();
                Map<String, int[]> keyPositions = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    var keyLoc = p.currentTokenLocation();
                    if (entries.containsKey(key)) {
                        throw new ScenarioFault(fileLabel, keyLoc.getLineNr(), keyLoc.getColumnNr(), key,
                                "duplicate key");
                    }
                    p.nextToken();
                    entries.put(key, read(p, fileLabel));
                    keyPositions.put(key, new int[] {keyLoc.getLineNr(), keyLoc.getColumnNr()});
                }
                return new MapNode(line, column, Collections.unmodifiableMap(entries),
                        Collections.unmodifiableMap(keyPositions));
            }
            case START_ARRAY: {
                List<Node> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    items.add(read(p, fileLabel));
                }
                return new ListNode(line, column, List.copyOf(items));
            }
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return new Scalar(line, column, p.getText(), true, false);
            case VALUE_TRUE:
            case VALUE_FALSE:
                return new Scalar(line, column, p.getText(), false, true);
            case VALUE_NULL:
                return new Scalar(line, column, "", false, false);
            default:
                return new Scalar(line, column, p.getText(), false, false);
        }
    }
}
