package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every server configuration shipped under {@code examples/} is one the loader accepts as it stands, so a
 * change of a key, default or range (such as metrics port 0 now meaning any free port) cannot leave an
 * example behind that the server would refuse.
 */
class ExampleConfigurationsLoadTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"thesis-testbed.yaml", "scenarios/thesis-states-polled.yaml", "demo/demo.yaml", "standby-pair/a.yaml",
        "standby-pair/b.yaml"})
    void eachShippedServerConfigurationLoadsWithoutAFault(final String example) throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(Path.of("../examples").resolve(example));

        assertFalse(configuration.connectionSpecs().isEmpty(), example + " serves connections");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"thesis-testbed.yaml", "scenarios/thesis-states-polled.yaml"})
    void theExamplesTheReadmeRunsServeMetricsOnTheDefaultPort(final String example) throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(Path.of("../examples").resolve(example));

        assertEquals(ServerSettings.Metrics.DEFAULT, configuration.server().metrics());
    }
}
