package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.latencyserver.idl.LatservPOA;
import org.latencyserver.idl.LatservPackage.IdlBaselineMeasurements;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

class PushSenderTest {
    private static final String SCENARIO = "step_seconds: 10\n"
            + "nodes: [ { name: ws1, port: 0 }, { name: ws2, port: 0 } ]\n"
            + "links: [ { name: atm, port: 0, if_index: 3, speed_mbps: 155 } ]\n"
            + "steps:\n  - { cpu: { ws1: 10, ws2: 50 }, port: { atm: 30 } }\n  - { cpu: { ws1: 85 }, port: { atm: 95 } }\n"
            + "connections:\n  - { index_ref: 1, client: ws1, peer: ws2, link: atm }\n"
            + "  - { index_ref: 7, client: ws2, peer: ws1, link: atm }\n";

    private static String describe(IdlMibUpdates u) {
        return u.index_ref + ":" + u.latest_client_mib_cpu + "/" + u.latest_peer_mib_cpu + "/" + u.latest_mib_port;
    }

    @Test
    void eachConnectionGetsItsClientPeerAndPortPercentOfTheCurrentStep() throws Exception {
        Scenario s = ScenarioLoader.parse(SCENARIO, "push.yaml");
        PushSender sender = new PushSender(s, u -> { }, () -> 0);
        assertEquals(List.of("1:10/50/30", "7:50/10/30"), sender.updatesAt(5_000_000L).stream().map(PushSenderTest::describe).toList());
        assertEquals(List.of("1:85/50/95", "7:50/85/95"), sender.updatesAt(15_000_000L).stream().map(PushSenderTest::describe).toList());
    }

    @Test
    void aFailingServerIsCountedAndRetriedNeverThrown() throws Exception {
        Scenario s = ScenarioLoader.parse(SCENARIO, "push.yaml");
        int[] calls = {0};
        PushSender sender = new PushSender(s, u -> {
            if (calls[0]++ < 3) {
                throw new org.omg.CORBA.TRANSIENT("server down");
            }
        }, () -> 0);
        sender.pushOnce();
        sender.pushOnce();
        assertEquals(3, sender.failedUpdates());
        assertEquals(1, sender.deliveredUpdates());
    }

    @Test
    void putMibUpdatesReachesARealLatservServantOverCorba() throws Exception {
        Properties props = new Properties();
        props.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        props.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        props.setProperty("OAIAddr", "127.0.0.1");
        ORB serverOrb = ORB.init(new String[0], props);
        List<String> received = new CopyOnWriteArrayList<>();
        try {
            POA root = POAHelper.narrow(serverOrb.resolve_initial_references("RootPOA"));
            root.the_POAManager().activate();
            LatservPOA servant = new LatservPOA() {
                @Override
                public IdlStatusToClient RequestStatus(short clientRef) {
                    throw new org.omg.CORBA.NO_IMPLEMENT();
                }

                @Override
                public void UpdateResponse(IdlBaselineMeasurements baselineStatus, short clientRef) {
                    throw new org.omg.CORBA.NO_IMPLEMENT();
                }

                @Override
                public void PutMibUpdates(IdlMibUpdates mibUpdates, short clientRef) {
                    received.add(describe(mibUpdates) + " ref " + clientRef);
                }

                @Override
                public TableRow RequestTableStatus(short clientRef) {
                    throw new org.omg.CORBA.NO_IMPLEMENT();
                }
            };
            String ior = serverOrb.object_to_string(root.servant_to_reference(servant));
            Scenario s = ScenarioLoader.parse(SCENARIO, "push.yaml");
            try (CorbaMibUpdateTarget target = new CorbaMibUpdateTarget(ior)) {
                PushSender sender = new PushSender(s, target, () -> 12_000_000L);
                sender.pushOnce();
                assertEquals(0, sender.failedUpdates());
            }
            assertEquals(List.of("1:85/50/95 ref 1", "7:50/85/95 ref 7"), received);
        } finally {
            serverOrb.shutdown(true);
        }
    }

    @Test
    void anUnreachableServerDoesNotStopPushing() throws Exception {
        Scenario s = ScenarioLoader.parse(SCENARIO, "push.yaml");
        try (CorbaMibUpdateTarget target = new CorbaMibUpdateTarget("corbaloc:iiop:127.0.0.1:1/Latserv")) {
            PushSender sender = new PushSender(s, target, () -> 0);
            sender.pushOnce();
            sender.pushOnce();
            assertEquals(4, sender.failedUpdates());
            assertTrue(sender.deliveredUpdates() == 0);
        }
    }
}
