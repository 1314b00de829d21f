package org.latencyserver.server.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.table.ConnectionSpec;

/**
 * The validated configuration of a server: what {@link ConfigurationLoader} makes of one YAML
 * file. The file's format is documented in {@code docs/operator-guide.md} and by
 * {@code examples/thesis-testbed.yaml}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param file                 where it was read from
 * @param serverName           the name registered in the naming service
 * @param stateFile            where the table is saved across restarts
 * @param operatorCallsEnabled whether {@code PutMibUpdates} is accepted
 * @param plannerCallsEnabled  whether {@code load_profile} is accepted
 * @param engine               thresholds, hysteresis, measurement settings
 * @param profiles             loaded profiles by name
 * @param nodes                the workstations
 * @param links                names of the switch ports
 * @param connections          the connections, in file order
 */
public record ServerConfiguration(Path file, String serverName, Path stateFile, boolean operatorCallsEnabled, boolean plannerCallsEnabled,
                                  EngineSettings engine, Map<String, Profile> profiles, List<NodeConfig> nodes,
                                  List<String> links, List<ConnectionSpec> connections) {
}
