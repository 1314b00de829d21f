package org.latencyserver.benchmarks.stores;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.persistence.RecordAccess;
import org.latencyserver.server.table.ConnectionRow;

/**
 * SQLite in WAL mode (xerial sqlite-jdbc, its bundled native library): one table
 * {@code connections(index_ref INTEGER PRIMARY KEY, record TEXT)}, the server's whole record per
 * row, one upsert per changed connection and a commit per acknowledgement. {@code synchronous=NORMAL}:
 * a commit is a {@code write()} of its pages to {@code state.db-wal}, forced only at a checkpoint,
 * so a commit survives {@code kill -9} but not a power cut — the journal's guarantee.
 */
final class SqliteWalStore implements ComparedStore {

    private static final String UPSERT = "INSERT INTO connections(index_ref, record) VALUES (?, ?) "
        + "ON CONFLICT(index_ref) DO UPDATE SET record = excluded.record";

    private final ChangedRows changed = new ChangedRows();
    private Connection connection;
    private PreparedStatement upsert;

    @Override
    public String name() {
        return "sqlite-wal";
    }

    private static Connection connect(final Path directory) throws SQLException {
        final Connection connection = DriverManager.getConnection("jdbc:sqlite:" + directory.resolve("state.db"));
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode=WAL");
            statement.execute("PRAGMA synchronous=NORMAL");
        }
        return connection;
    }

    @Override
    public void open(final Path directory, final UpdateEngine engine) throws SQLException {
        connection = connect(directory);
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE connections(index_ref INTEGER PRIMARY KEY, record TEXT NOT NULL)");
        }
        connection.setAutoCommit(false);
        upsert = connection.prepareStatement(UPSERT);
        save(engine.table().rows());
        engine.addListener(changed);
    }

    @Override
    public void acknowledge() throws SQLException {
        save(changed.take());
    }

    private void save(final List<ConnectionRow> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        for (final ConnectionRow row : rows) {
            upsert.setInt(1, row.spec().indexRef());
            upsert.setString(2, new String(RecordAccess.wholeRecord(row), StandardCharsets.UTF_8));
            upsert.executeUpdate();
        }
        connection.commit();
    }

    @Override
    public int restore(final Path directory, final UpdateEngine engine, final int maxHistogramBins) throws SQLException {
        final List<byte[]> records = new ArrayList<>();
        try (Connection reader = connect(directory); Statement statement = reader.createStatement();
             ResultSet rows = statement.executeQuery("SELECT record FROM connections")) {
            while (rows.next()) {
                records.add(rows.getString(1).getBytes(StandardCharsets.UTF_8));
            }
        }
        return RecordAccess.restoreInto(engine, records, maxHistogramBins, 0);
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            connection.close();
        }
    }
}
