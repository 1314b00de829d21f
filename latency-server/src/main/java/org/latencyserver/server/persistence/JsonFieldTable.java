package org.latencyserver.server.persistence;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.latencyserver.core.input.InputNode;

/**
 * The fields of one kind of JSON object in the saved state, each named once: how it is written
 * from a value, how it is read back into a draft, and which part of the value it stands for. One
 * table drives writing, reading and comparing, so a field added for one is there for all three.
 *
 * <p>Writing follows the table's write order (the file's field order); reading follows its read
 * order, in which what a field's reading depends on comes first and a reader throws at the
 * object's first fault, so the order decides which fault is reported.
 *
 * <p>Immutable; thread-safe as its writers and readers are (stateless functions).
 *
 * @param <V> what the object is written from
 * @param <D> the draft a read fills in, confined to one read
 */
final class JsonFieldTable<V, D> {

    /** Writes a field; {@code earlier} is the value the previous record on disk was written from, or null. */
    @FunctionalInterface
    interface Writer<V> {
        void write(ObjectNode node, String name, V value, V earlier);
    }

    /** Reads a field into the draft; throws {@link IllegalArgumentException} naming the field and the fault. */
    @FunctionalInterface
    interface Reader<D> {
        void read(InputNode node, String name, D draft);
    }

    /**
     * One field.
     *
     * @param name     its JSON name
     * @param compared the part of the value it is written from, compared with {@link Objects#equals}
     *                 by {@link #sameInComparedFields}; null for a field that does not count there
     */
    record Field<V, D>(String name, Function<V, Object> compared, Writer<V> writer, Reader<D> reader) {
    }

    private final List<Field<V, D>> writeOrder;
    private final List<Field<V, D>> readOrder;

    /**
     * @param writeOrder every field, in the order written
     * @param readOrder  the same fields, in the order read
     * @throws IllegalArgumentException when the two do not hold the same fields, each once
     */
    JsonFieldTable(final List<Field<V, D>> writeOrder, final List<Field<V, D>> readOrder) {
        if (Set.copyOf(writeOrder).size() != writeOrder.size() || readOrder.size() != writeOrder.size()
            || !Set.copyOf(readOrder).equals(Set.copyOf(writeOrder))) {
            throw new IllegalArgumentException("every field is written once and read once");
        }
        this.writeOrder = List.copyOf(writeOrder);
        this.readOrder = List.copyOf(readOrder);
    }

    /** Writes every field of {@code value} into {@code node}, abbreviating against {@code earlier} (or null) where a field does. */
    void write(final ObjectNode node, final V value, final V earlier) {
        for (final Field<V, D> field : writeOrder) {
            field.writer().write(node, field.name(), value, earlier);
        }
    }

    /** Reads every field of {@code node} into {@code draft}, in the read order. */
    void read(final InputNode node, final D draft) {
        for (final Field<V, D> field : readOrder) {
            field.reader().read(node, field.name(), draft);
        }
    }

    /** @return whether the two values are equal in every compared field */
    boolean sameInComparedFields(final V a, final V b) {
        for (final Field<V, D> field : writeOrder) {
            if (field.compared() != null && !Objects.equals(field.compared().apply(a), field.compared().apply(b))) {
                return false;
            }
        }
        return true;
    }
}
