package org.latencyserver.server.snmp;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.server.config.ConnectionSpecs;
import org.latencyserver.server.config.LinkConfig;
import org.latencyserver.server.config.NodeConfig;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;

/**
 * One QoS 1 connection (index_ref {@value #INDEX_REF}, 256-byte messages, profile
 * {@code thesis-tac4-corba}) in a real update engine, fed by the real {@link SnmpPoller} polling
 * its workstations and switch port every 100 ms (a source is UNKNOWN after 5 misses in a row); a
 * test awaits what the connection's row or the poller's sources show.
 *
 * <p>Not thread-safe: one test thread starts, awaits and closes it.
 */
final class PolledConnection implements AutoCloseable {

    static final short INDEX_REF = 1;
    private static final String PROFILE = "thesis-tac4-corba";
    private static final long POLL_INTERVAL_MILLIS = 100;
    private static final int UNKNOWN_AFTER_MISSED_POLLS = 5;

    private final EngineLoop loop;
    private final SnmpPoller poller;
    private final Callable<String> diagnostics;

    private PolledConnection(final EngineLoop loop, final SnmpPoller poller, final Callable<String> diagnostics) {
        this.loop = loop;
        this.poller = poller;
        this.diagnostics = diagnostics;
    }

    /**
     * Starts the engine and the poller.
     *
     * @param client              the client workstation
     * @param peer                the peer workstation
     * @param link                the switch port between them, or null for none
     * @param environment         the SNMP secrets, by the environment variable names the snmp blocks give
     * @param answerToUpdateNanos told the time from each answer to its values being applied, ns
     * @param diagnostics         what to add to a failed wait's message (e.g. the agent's log)
     * @return the running connection
     * @throws IOException                when the profile cannot be read or the poller cannot open its socket
     * @throws ProfileValidationException when the profile is invalid
     */
    static PolledConnection start(final NodeConfig client, final NodeConfig peer, final LinkConfig link,
                                  final Map<String, String> environment, final LongConsumer answerToUpdateNanos,
                                  final Callable<String> diagnostics) throws IOException, ProfileValidationException {
        final ConnectionSpec connection = ConnectionSpecs.of(INDEX_REF, client, peer, link, 256, 1, 0, PROFILE);
        final Profile profile = ProfileJson.read(Path.of("../profiles/" + PROFILE + ".json"));
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(connection, 0))),
            Map.of(profile.name(), profile), EngineSettings.DEFAULT, new SecureRandom()::nextLong, System::currentTimeMillis);
        final EngineLoop loop = new EngineLoop(engine, System::nanoTime, 50_000_000L);
        loop.start();
        try {
            final SnmpPoller poller = new SnmpPoller(List.of(client, peer), link == null ? List.of() : List.of(link), List.of(connection),
                POLL_INTERVAL_MILLIS, UNKNOWN_AFTER_MISSED_POLLS, environment::get,
                new EngineFeed(loop, answerToUpdateNanos, System::nanoTime), System::nanoTime);
            poller.start();
            return new PolledConnection(loop, poller, diagnostics);
        } catch (IOException | RuntimeException e) {
            loop.close();
            throw e;
        }
    }

    /**
     * Waits until the connection's row meets the condition.
     *
     * @param what           the condition, for the failure message
     * @param condition      on the row
     * @param timeoutSeconds how long at most
     * @return the first row that met it
     * @throws AssertionError when none did in time (with the last row and the diagnostics)
     */
    ConnectionRow awaitRow(final String what, final Predicate<ConnectionRow> condition, final long timeoutSeconds)
        throws Exception {
        final ConnectionRow[] met = new ConnectionRow[1];
        await(what, () -> {
            final ConnectionRow row = row();
            met[0] = row;
            return condition.test(row);
        }, timeoutSeconds);
        return met[0];
    }

    /**
     * Waits until the poller has made a workstation or switch port UNKNOWN (its misses in a row).
     *
     * @param name           the node's or link's name
     * @param timeoutSeconds how long at most
     * @throws AssertionError when it still answered at the end (with the last row and the diagnostics)
     */
    void awaitSourceUnknown(final String name, final long timeoutSeconds) throws Exception {
        await(name + " UNKNOWN to the poller", () -> Boolean.FALSE.equals(poller.sourcesUp().get(name)), timeoutSeconds);
    }

    /** @return the connection's row now */
    ConnectionRow row() {
        return loop.query().row(INDEX_REF);
    }

    private void await(final String what, final BooleanSupplier condition, final long timeoutSeconds) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        final ConnectionRow row = row();
        throw new AssertionError("not seen within " + timeoutSeconds + " s: " + what + "; last row: mib " + row.latest()
            + ", load " + row.load() + ", stale " + row.staleInputs() + "; sources up " + poller.sourcesUp() + "; "
            + diagnostics.call());
    }

    @Override
    public void close() {
        poller.close();
        loop.close();
    }
}
