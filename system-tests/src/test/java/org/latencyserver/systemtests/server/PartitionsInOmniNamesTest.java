package org.latencyserver.systemtests.server;

import org.junit.jupiter.api.Order;
import org.latencyserver.systemtests.kit.OmniNames;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.omg.CORBA.ORB;

/** The partitioned deployment in omniORB's naming service, omniNames (Debian omniorb-nameserver): another ORB's. */
@Order(4) // a long class, started early (junit-platform.properties); waits for the other partition class, its thread working meanwhile
class PartitionsInOmniNamesTest extends PartitionedDeploymentChecks {

    @Override
    String startNamingService(final SystemUnderTest kit, final ORB clientOrb) throws Exception {
        return OmniNames.start(kit, clientOrb).reference();
    }
}
