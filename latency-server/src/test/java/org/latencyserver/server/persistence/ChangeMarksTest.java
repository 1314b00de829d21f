package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.persistence.TestRows.HIGH_LOW;
import static org.latencyserver.server.persistence.TestRows.LOW_LOW;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;

/** Which connections the writer takes: changed ones at once, readings-only ones once promoted. */
class ChangeMarksTest {

    private static final ConnectionRow ROW = ConnectionRow.initial(TestRows.spec(1, "thesis-tac4-corba", CalibrationMode.THESIS), 0)
        .withMib(new MibReading((short) 20, (short) 20, (short) 10), LOW_LOW, 1);
    private static final ConnectionTable TABLE = new ConnectionTable(List.of(ROW));

    private static ConnectionRow reading(final int clientPercent) {
        return ROW.withMib(new MibReading((short) clientPercent, (short) 20, (short) 10), LOW_LOW, 2);
    }

    @Test
    void aReadingOnlyChangeIsTakenOnlyOncePromoted() {
        final ChangeMarks marks = new ChangeMarks();
        marks.mark(ROW, reading(21));
        assertTrue(marks.noneChanged());
        assertFalse(marks.isEmpty());
        assertTrue(marks.takeChangedRows(TABLE).isEmpty());
        marks.promoteReadings();
        assertEquals(List.of(ROW), marks.takeChangedRows(TABLE), "the row as the table holds it now");
        assertTrue(marks.isEmpty());
    }

    @Test
    void aTakenConnectionTakesItsReadingsAlongAndAFailedWriteMarksItAgain() {
        final ChangeMarks marks = new ChangeMarks();
        marks.mark(ROW, reading(21));
        marks.mark(ROW, ROW.withMib(ROW.latest(), HIGH_LOW, 3).withEstimate(TestRows.average(1, 2.0, "profile"), null));
        final List<ConnectionRow> taken = marks.takeChangedRows(TABLE);
        assertEquals(1, taken.size());
        assertTrue(marks.isEmpty(), "its readings are in the record taken");
        marks.markAgain(taken);
        assertFalse(marks.noneChanged());
        marks.clear();
        assertTrue(marks.isEmpty());
    }

    @Test
    void aFirstRowIsAChange() {
        final ChangeMarks marks = new ChangeMarks();
        marks.mark(null, ROW);
        assertFalse(marks.noneChanged());
    }
}
