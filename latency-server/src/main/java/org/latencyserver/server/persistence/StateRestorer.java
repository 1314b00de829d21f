package org.latencyserver.server.persistence;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFaultsException;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.server.engine.Command;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.persistence.ConnectionRecordCodec.SavedConnection;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the saved files back into the engine's rows at start: reads the state file, replays the
 * journal's lines and then the compaction's journal's over it (the last record of a connection
 * wins), and restores each saved connection that still matches the configuration into the engine.
 *
 * <p>Which journals are replayed: one whose header names the state file's generation G; the
 * compaction's journal also when it names G+1 (a kill before the compaction's state file was in
 * place leaves it beside the old file). A journal naming an older generation is what a newer state
 * file already holds: not replayed. One naming a newer generation than the file's cannot be applied
 * to it: moved aside.
 *
 * <p>Damage: a damaged record (one that fails a check, a histogram over the bin limit included, or
 * a journal line before the last that is no JSON object) that names its connection sets that
 * connection aside ({@link DamagedRecords}): it starts from the configuration, named in an ERROR log
 * line, and every other connection is restored. A state file that cannot be parsed, a bad journal
 * header, or a damaged record naming no connection makes the saved state damaged whole: nothing is
 * restored. Either way the files are moved aside (named with the time) for inspection, every fault
 * is reported with its place in {@link #refusedBecause()} and the log, and the state file written at
 * start holds what was restored. A cut-off last line (a kill during an append) is ignored with a log
 * line. A journal without a state file is moved aside.
 *
 * <p>Thread-safety: {@link #restoreInto} runs on the starting thread before the store's writer
 * starts; the results are volatile so the writer and other threads read them afterwards.
 */
final class StateRestorer {

    private static final Logger LOG = LoggerFactory.getLogger(StateRestorer.class);

    private final StateFiles files;
    private final ConnectionTable table;
    private final int maxHistogramBins;
    /** Why the last restore set the files aside (whole, or damaged records of some connections); null when it did not. */
    private volatile String refusedBecause;
    /** The newest generation the last restore read, state file or journal header; 0 for none. */
    private volatile long restoredGeneration;

    /**
     * @param table            the configured connections, which saved ones must match to be restored
     * @param maxHistogramBins the most bins a saved histogram may have
     */
    StateRestorer(final StateFiles files, final ConnectionTable table, final int maxHistogramBins) {
        this.files = files;
        this.table = table;
        this.maxHistogramBins = maxHistogramBins;
    }

    /** @return why the last restore set the saved files aside (every fault, one a line), or null when it did not */
    String refusedBecause() {
        return refusedBecause;
    }

    /**
     * @return the newest generation a restore read (a state file's or a replayed journal's); a
     *         state file written afterwards must take a later one; 0 before any was read
     */
    long restoredGeneration() {
        return restoredGeneration;
    }

    /**
     * Restores what the state file and its journals hold into the engine: {@link #replay} applied,
     * on the caller's thread, which must own the engine (before its update thread starts).
     *
     * @param engine   the engine to restore into
     * @param nowNanos monotonic time
     * @return how many connections were restored
     */
    int restoreInto(final UpdateEngine engine, final long nowNanos) {
        int restored = 0;
        for (final Command.RestoreConnection command : replay()) {
            if (command.applyTo(engine, nowNanos)) {
                restored++;
            }
        }
        return restored;
    }

    /**
     * Reads the state file and replays its journals (the newest record of a connection wins) into
     * one command per saved connection that still matches the configuration; those that no longer
     * do (gone, or another QoS or size) are skipped with a log line. A damaged record sets its
     * connection aside; a file damaged whole is set aside and nothing is restored from it.
     *
     * @return the commands, one per restorable connection, in no particular order
     */
    List<Command.RestoreConnection> replay() {
        final Path file = files.stateFile();
        if (!Files.exists(file)) {
            setAsideOrphanJournals();
            return List.of();
        }
        final Map<Short, SavedConnection> saved;
        final int replayed;
        final DamagedRecords damaged = new DamagedRecords();
        try {
            final StateCodec.Decoded decoded = StateCodec.decode(Files.readString(file, StandardCharsets.UTF_8), file.toString(),
                maxHistogramBins, damaged, this::hopCountOf);
            saved = new HashMap<>(decoded.connections());
            restoredGeneration = decoded.generation();
            // The compaction's journal carries on from the journal: a kill before its state file was in place leaves both.
            replayed = replayJournal(files.journal(), saved, decoded.generation(), false, damaged)
                + replayJournal(files.nextJournal(), saved, decoded.generation(), true, damaged);
        } catch (InputFaultsException e) {
            setAside(damaged.isEmpty() ? e.getMessage() : damaged.describe() + System.lineSeparator() + e.getMessage(), null);
            return List.of();
        } catch (IOException | RuntimeException e) {
            setAside(file + ": cannot be read: " + e, null);
            return List.of();
        }
        if (!damaged.isEmpty()) {
            damaged.faults().keySet().forEach(saved::remove);
            setAside(damaged.describe(), damaged);
        }
        final List<Command.RestoreConnection> commands = new ArrayList<>();
        for (final SavedConnection s : saved.values()) {
            final ConnectionRow row = table.row(s.indexRef());
            if (row == null || row.spec().qos() != s.qos() || row.spec().messageSizeBytes() != s.messageSizeBytes()) {
                LOG.warn("saved state of connection {} does not match the configuration any more; not restored", s.indexRef());
                continue;
            }
            commands.add(new Command.RestoreConnection(s.indexRef(), s.latest(), s.previous(), s.estimate(), s.unavailableReason(),
                s.measurementWanted(), s.measurement(), s.served(), s.learning()));
        }
        LOG.info("restoring {} connections from {} and {} journal records after it", commands.size(), file, replayed);
        return commands;
    }

    /** @return the hops of the configured connection of {@code indexRef}, 0 when it is not configured */
    private int hopCountOf(final int indexRef) {
        final ConnectionRow row = table.row((short) indexRef);
        return row == null ? 0 : row.spec().hopCount();
    }

    /** No state file: journals beside it continue a state file that is gone. */
    private void setAsideOrphanJournals() {
        boolean journals = false;
        for (final Path journal : List.of(files.journal(), files.nextJournal())) {
            if (Files.exists(journal)) {
                journals = true;
                final Path aside = StateFiles.moveAside(journal, StateFiles.timeSuffix());
                LOG.error("the journal {} has no state file beside it: its records continue a state file that is gone; moved to"
                    + " {}; starting from the configuration", journal, aside);
            }
        }
        if (!journals) {
            LOG.info("no saved state at {}: starting from the configuration", files.stateFile());
        }
    }

    /**
     * Applies a journal's records over the state file's, in order. Every line is checked, so a
     * damaged journal is refused with all of its faults, each at its line and column. A replayed
     * journal's generation counts as restored: the state file written at start gets a later one, so
     * that this journal, should a kill leave it beside that file, is seen as older and not replayed
     * again.
     *
     * @param journalFile    the journal or the compaction's journal
     * @param fileGeneration the state file's generation
     * @param next           whether it is the compaction's journal: it continues either the state
     *                       file (the compaction's state file is in place) or the one after it (it is
     *                       not: its lines, written whole, follow the journal's)
     * @return records applied
     * @throws InputFaultsException with every fault, when a line before the last is bad
     */
    private int replayJournal(final Path journalFile, final Map<Short, SavedConnection> saved, final long fileGeneration,
                              final boolean next, final DamagedRecords damaged)
        throws IOException, InputFaultsException {
        if (!Files.exists(journalFile)) {
            return 0;
        }
        final List<String> lines = StateJournal.read(journalFile).all();
        final InputFaults faults = new InputFaults(journalFile.toString());
        int applied = 0;
        for (int i = 0; i < lines.size(); i++) {
            final InputFaults lineFaults = new InputFaults(journalFile.toString());
            final InputNode node = InputNode.parse(lines.get(i), InputFormat.JSON, lineFaults);
            boolean setAside = false;
            if (node.kind() != InputNode.Kind.MAP) {
                if (i == lines.size() - 1) {
                    LOG.warn("the last line of the journal {} (line {}, {} characters) is cut off, written when the server was"
                        + " killed: ignored; {} records before it restored", journalFile, i + 1, lines.get(i).length(), applied);
                    break;
                }
                if (lineFaults.isEmpty()) {
                    lineFaults.at(node, "line", "not a JSON object, was " + node.describe());
                }
                if (i > 0) {
                    setAside = setAsideIfNamed(DamagedRecords.indexRefOfText(lines.get(i)), lineFaults, i + 1, saved, damaged);
                }
            } else if (i == 0) {
                final long continues = StateCodec.journalGeneration(node, lineFaults);
                if (continues > 0 && continues != fileGeneration && !(next && continues == fileGeneration + 1)) {
                    notReplayed(journalFile, continues, fileGeneration);
                    return 0;
                }
                restoredGeneration = Math.max(restoredGeneration, continues);
            } else if (applyRecord(node, saved, damaged, lineFaults)) {
                applied++;
            } else {
                setAside = setAsideIfNamed(DamagedRecords.indexRefOf(node), lineFaults, i + 1, saved, damaged);
            }
            // Each line is parsed alone: its faults say line 1; the journal's line is i + 1.
            for (final InputFault fault : setAside ? List.<InputFault>of() : lineFaults.inOrderFound()) {
                faults.add(i + 1, fault.column(), fault.path(), fault.reason());
            }
        }
        faults.throwIfAny();
        return applied;
    }

    /**
     * A journal record over the connection's earlier one, unless that connection is set aside.
     *
     * @return whether it was applied; false with the fault in {@code lineFaults} when it is damaged, or
     *         with none when its connection was set aside before
     */
    private boolean applyRecord(final InputNode node, final Map<Short, SavedConnection> saved, final DamagedRecords damaged,
                                final InputFaults lineFaults) {
        final Optional<Short> indexRef = DamagedRecords.indexRefOf(node);
        if (indexRef.isPresent() && damaged.isSetAside(indexRef.get())) {
            return false;
        }
        try {
            final SavedConnection connection = ConnectionRecordCodec.decode(node, saved, maxHistogramBins, this::hopCountOf);
            saved.put(connection.indexRef(), connection);
            return true;
        } catch (RuntimeException e) {
            lineFaults.at(node, "record", e.getMessage());
            return false;
        }
    }

    /**
     * A damaged line that names its connection sets that connection aside; one that names none stays a
     * fault of the file.
     *
     * @param line the line's number in the journal, from 1
     * @return whether the line's connection was set aside (its faults are then no faults of the file)
     */
    private static boolean setAsideIfNamed(final Optional<Short> indexRef, final InputFaults lineFaults, final int line,
                                        final Map<Short, SavedConnection> saved, final DamagedRecords damaged) {
        if (indexRef.isEmpty() || lineFaults.isEmpty()) {
            return false;
        }
        final InputFault first = lineFaults.inOrderFound().get(0);
        damaged.setAside(indexRef.get(), new InputFault(lineFaults.source(), line, first.column(), first.path(), first.reason()));
        saved.remove(indexRef.get());
        return true;
    }

    /** A journal that does not continue this state file. */
    private static void notReplayed(final Path journalFile, final long continues, final long fileGeneration) {
        if (continues < fileGeneration) {
            // A kill between writing a state file and deleting the journal before it: the file holds all of it.
            LOG.info("the journal {} continues the state file of generation {}, which the state file (generation {}) replaced and"
                + " holds: not replayed", journalFile, continues, fileGeneration);
        } else {
            final Path aside = StateFiles.moveAside(journalFile, StateFiles.timeSuffix());
            LOG.error("the journal {} continues the state file of generation {}, but the state file is generation {} (an older"
                + " copy?): its records cannot be applied to it; moved to {}", journalFile, continues, fileGeneration, aside);
        }
    }

    /**
     * Moves the saved files aside (named with the time), keeping them for inspection.
     *
     * @param reason  every fault, one a line
     * @param damaged the connections set aside alone, every other one restored; null when the whole saved state is
     */
    private void setAside(final String reason, final DamagedRecords damaged) {
        refusedBecause = reason;
        final Path file = files.stateFile();
        final String time = StateFiles.timeSuffix();
        final Path aside = StateFiles.moveAside(file, time);
        final Path journalAside = Files.exists(files.journal()) ? StateFiles.moveAside(files.journal(), time) : null;
        final Path nextAside = Files.exists(files.nextJournal()) ? StateFiles.moveAside(files.nextJournal(), time) : null;
        final String moved = aside == null ? " and could not be moved aside" : "; moved to " + aside
            + (journalAside == null ? "" : ", its journal to " + journalAside)
            + (nextAside == null ? "" : ", the compaction's journal to " + nextAside);
        if (damaged == null) {
            LOG.error("saved state {} is damaged ({}){}; starting from the configuration", file, reason, moved);
            return;
        }
        damaged.faults().forEach((indexRef, fault) -> LOG.error("the saved records of connection {} are damaged ({}): set aside,"
            + " it starts from the configuration", indexRef, fault));
        LOG.error("saved state {} holds damaged records of connections {}{}; every other connection is restored", file,
            damaged.connections(), moved);
    }
}
