package org.latencyserver.server.standby;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.server.persistence.LearnedCellsCodec;
import org.latencyserver.server.persistence.ReplicaRecords;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The messages a primary sends its standby: one kind byte, then the body — {@value #RECORDS}:
 * connections' records ({@link ReplicaRecords}); {@value #PROFILE}: a profile a planner loaded, as
 * its JSON file holds it ({@link ProfileJson}); {@value #LEARNED}: the profile cells learned from
 * live probes that changed since the standby's last acknowledgement ({@link LearnedCellsCodec}).
 *
 * <p>Stateless and thread-safe.
 */
final class ReplicaMessages {

    /** Kind byte of a message of connections' records. */
    static final byte RECORDS = 'R';
    /** Kind byte of a message carrying one loaded profile. */
    static final byte PROFILE = 'P';

    /** Kind byte of a message carrying the learned profile cells. */
    static final byte LEARNED = 'L';

    private ReplicaMessages() {
    }

    static byte[] records(final List<ConnectionRow> rows) {
        return framed(RECORDS, ReplicaRecords.encode(rows));
    }

    static byte[] profile(final Profile profile) {
        return framed(PROFILE, ProfileJson.toJson(profile).getBytes(StandardCharsets.UTF_8));
    }

    static byte[] learned(final LearnedCellsCodec.Change change) {
        return framed(LEARNED, LearnedCellsCodec.encode(change));
    }

    private static byte[] framed(final byte kind, final byte[] body) {
        final byte[] message = new byte[body.length + 1];
        message[0] = kind;
        System.arraycopy(body, 0, message, 1, body.length);
        return message;
    }

    /**
     * @return the message's kind byte
     * @throws IllegalArgumentException for an empty message
     */
    static byte kindOf(final byte[] message) {
        if (message.length == 0) {
            throw new IllegalArgumentException("an empty message from the primary");
        }
        return message[0];
    }

    /** @return the message's body, after its kind byte */
    static byte[] bodyOf(final byte[] message) {
        return Arrays.copyOfRange(message, 1, message.length);
    }
}
