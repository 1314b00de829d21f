package org.latencyserver.server.standby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;

/**
 * The primary's sender against a link the test scripts: what a write waits for, what is sent
 * again after a failure, and what a joining standby is sent. The sender's own flush is set far
 * out (an hour), so every send here is one a caller asked for.
 */
class ReplicationSenderTest {

    private static final long HOUR_MILLIS = 3_600_000;

    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final AtomicBoolean linkWorks = new AtomicBoolean(true);
    private ReplicationSender sender;

    private static ConnectionTable table(final int connections) {
        final List<ConnectionRow> rows = new ArrayList<>();
        for (int i = 1; i <= connections; i++) {
            rows.add(ConnectionRow.initial(new ConnectionSpec((short) i, "lab1", (short) 5, new WorkstationType("LOCAL-2CORE", 5),
                "lab2", (short) 6, new WorkstationType("LOCAL-2CORE", 5), null, 256, 1, 0, "p", CalibrationMode.THESIS, 0), 0));
        }
        return new ConnectionTable(rows);
    }

    private ReplicationSender started(final ConnectionTable table) {
        sender = new ReplicationSender(table, (records, timeout) -> {
            if (!linkWorks.get()) {
                return false;
            }
            sent.add(new String(records, StandardCharsets.UTF_8));
            return true;
        }, 1000, HOUR_MILLIS);
        sender.start();
        return sender;
    }

    @AfterEach
    void close() {
        if (sender != null) {
            sender.close();
        }
    }

    private static void change(final ConnectionTable table, final ReplicationSender sender, final int indexRef, final int cpu) {
        final ConnectionRow before = table.row((short) indexRef);
        final ConnectionRow after = before.toBuilder().latest(new MibReading((short) cpu, (short) cpu, (short) cpu))
            .version(before.version() + 1).build();
        table.publish(after);
        sender.rowChanged(before, after);
    }

    private static long records(final List<String> messages) {
        return messages.stream().mapToLong(m -> m.lines().count()).sum();
    }

    @Test
    void withoutAStandbyAWriteIsAnsweredAtOnceAndCountedUnprotected() {
        final ConnectionTable table = table(2);
        final ReplicationSender sender = started(table);
        change(table, sender, 1, 10);
        assertFalse(sender.awaitReplicated(5000));
        assertEquals(1, sender.unprotectedWrites());
        assertFalse(sender.protectedNow());
        assertEquals(List.of(), sent, "nothing is sent without a standby");
    }

    @Test
    void aJoiningStandbyIsSentTheWholeTableInMessagesOfBoundedSizeThenEachChangeBeforeTheWriteIsAnswered() {
        final ConnectionTable table = table(ReplicationSender.MAX_RECORDS_PER_MESSAGE + 10);
        final ReplicationSender sender = started(table);
        sender.standbyJoined();
        change(table, sender, 7, 42);
        assertTrue(sender.awaitReplicated(30_000), "the standby holds the change");
        assertTrue(sender.protectedNow());
        assertEquals(0, sender.unprotectedWrites());
        assertTrue(sent.size() >= 2, "more than one message for " + table.rows().size() + " records");
        assertTrue(sent.stream().allMatch(m -> m.lines().count() <= ReplicationSender.MAX_RECORDS_PER_MESSAGE));
        assertTrue(records(sent) >= table.rows().size(), "every connection once at least");
        final String last7 = sent.stream().flatMap(String::lines).filter(l -> l.contains("\"index_ref\":7,")).reduce((a, b) -> b)
            .orElseThrow();
        assertTrue(last7.contains("42"), "connection 7's newest record holds the change: " + last7);
    }

    @Test
    void aSendTheStandbyDidNotAcknowledgeLeavesTheWriteUnprotectedAndItsConnectionIsSentAgainWithTheNext() {
        final ConnectionTable table = table(3);
        final ReplicationSender sender = started(table);
        sender.standbyJoined();
        assertTrue(sender.awaitReplicated(30_000));
        sent.clear();

        linkWorks.set(false);
        change(table, sender, 2, 55);
        assertFalse(sender.awaitReplicated(30_000));
        assertEquals(1, sender.unprotectedWrites());
        assertEquals(1, sender.sendsFailed());
        assertFalse(sender.protectedNow());

        linkWorks.set(true);
        change(table, sender, 3, 66);
        assertTrue(sender.awaitReplicated(30_000));
        assertTrue(sender.protectedNow(), "in step again");
        final List<String> lines = sent.stream().flatMap(String::lines).toList();
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"index_ref\":2,") && l.contains("55")), "the failed one again: " + lines);
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"index_ref\":3,") && l.contains("66")), lines::toString);
    }

    @Test
    void aLoadedProfileGoesBeforeTheRecordsThatFollowItAndAgainToAStandbyThatJoinsLater() throws Exception {
        final org.latencyserver.core.profile.Profile profile = org.latencyserver.core.profile.ProfileJson.read(
            java.nio.file.Path.of("../profiles/thesis-tac4-corba.json"));
        final ConnectionTable table = table(1);
        final ReplicationSender sender = started(table);
        sender.standbyJoined();
        assertTrue(sender.awaitReplicated(30_000));
        sent.clear();

        sender.profileLoaded(profile, true);
        change(table, sender, 1, 33);
        assertTrue(sender.awaitReplicated(30_000));
        assertEquals(2, sent.size(), sent::toString);
        assertTrue(sent.get(0).startsWith("P") && sent.get(0).contains("\"thesis-tac4-corba\""), "the profile first");
        assertTrue(sent.get(1).startsWith("R"), "then the records");

        sent.clear();
        sender.standbyLeft();
        sender.standbyJoined();
        assertTrue(sender.awaitReplicated(30_000));
        assertTrue(sent.get(0).startsWith("P"), "a joining standby is sent the loaded profile first: " + sent);
    }

    @Test
    void afterTheStandbyLeftWritesAreUnprotectedAgain() {
        final ConnectionTable table = table(1);
        final ReplicationSender sender = started(table);
        sender.standbyJoined();
        assertTrue(sender.awaitReplicated(30_000));
        sender.standbyLeft();
        change(table, sender, 1, 12);
        assertFalse(sender.awaitReplicated(30_000));
        assertFalse(sender.protectedNow());
        assertEquals(1, sender.unprotectedWrites());
    }
}
