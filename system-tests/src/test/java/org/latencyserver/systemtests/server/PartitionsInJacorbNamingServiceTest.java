package org.latencyserver.systemtests.server;

import org.junit.jupiter.api.Order;
import org.latencyserver.launch.Component;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.omg.CORBA.ORB;

/** The partitioned deployment in JacORB's naming service, as {@code ./latency naming-service} runs it. */
@Order(1) // a long class, started early (junit-platform.properties); the two partition classes run one after the other
class PartitionsInJacorbNamingServiceTest extends PartitionedDeploymentChecks {

    @Override
    String startNamingService(final SystemUnderTest kit, final ORB clientOrb) throws Exception {
        return kit.start(kit.launch(Component.NAMING_SERVICE).args("--port", Integer.toString(SystemUnderTest.freeTcpPort()),
            "--db-dir", directory.resolve("nsdb").toString())).ready().reference("naming");
    }
}
