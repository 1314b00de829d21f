package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.server.persistence.JsonFieldTable.Field;

/** A field table writes in its write order, reads in its read order and compares only compared fields. */
class JsonFieldTableTest {

    private record Point(long x, long y) {
    }

    private static final Field<Point, List<String>> X = new Field<>("x", Point::x,
        (node, name, p, earlier) -> node.put(name, p.x()), (node, name, read) -> read.add(name));
    private static final Field<Point, List<String>> Y = new Field<>("y", null,
        (node, name, p, earlier) -> node.put(name, p.y()), (node, name, read) -> read.add(name));

    @Test
    void writesInWriteOrderReadsInReadOrderAndComparesOnlyComparedFields() {
        final JsonFieldTable<Point, List<String>> table = new JsonFieldTable<>(List.of(X, Y), List.of(Y, X));
        final ObjectNode node = JsonNodeFactory.instance.objectNode();
        table.write(node, new Point(1, 2), null);
        assertEquals("{\"x\":1,\"y\":2}", node.toString());
        final List<String> read = new ArrayList<>();
        table.read(InputNode.parse(node.toString(), InputFormat.JSON, new InputFaults("test")), read);
        assertEquals(List.of("y", "x"), read);
        assertTrue(table.sameInComparedFields(new Point(1, 2), new Point(1, 3)), "y is not compared");
        assertFalse(table.sameInComparedFields(new Point(1, 2), new Point(0, 2)));
    }

    @Test
    void everyFieldIsWrittenOnceAndReadOnce() {
        assertThrows(IllegalArgumentException.class, () -> new JsonFieldTable<>(List.of(X, Y), List.of(X)));
        assertThrows(IllegalArgumentException.class, () -> new JsonFieldTable<>(List.of(X, X), List.of(X, X)));
    }
}
