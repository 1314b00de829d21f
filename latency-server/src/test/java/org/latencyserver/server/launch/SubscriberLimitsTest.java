package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.idl.latency.EstimateListenerHelper;
import org.latencyserver.idl.latency.EstimateListenerPOA;
import org.latencyserver.idl.latency.EstimateListenerPOATie;
import org.latencyserver.idl.latency.InvalidArgument;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * Subscriptions against a launched server over real JacORB sockets on loopback: a cap per caller,
 * and listeners that are gone reaped (by a failed push, or by the liveness check when nothing is
 * pushed), while a slow listener that answers keeps its subscription. Waits are generous "within"
 * limits, never measured.
 */
@Isolated // runs alone (junit-platform.properties): sets a JVM-wide system property (JacORB's loopback)
class SubscriberLimitsTest {

    /** The most any wait below lasts; the checks run every {@link #CHECK_MILLIS}. */
    private static final long WITHIN_MILLIS = 30_000;
    private static final long CHECK_MILLIS = 100;
    /** A check interval no test outlasts: only pushes can find a listener gone. */
    private static final long NO_CHECK_MILLIS = 3_600_000;

    @TempDir
    Path directory;
    private final List<ORB> orbs = new ArrayList<>();
    private ORB client;

    @BeforeEach
    void startAClientOrb() {
        client = orb();
    }

    @AfterEach
    void stopTheOrbs() {
        for (final ORB orb : orbs) {
            try {
                orb.shutdown(true);
            } catch (org.omg.CORBA.BAD_INV_ORDER alreadyDown) {
                // a test shut it down itself
            }
        }
    }

    @Test
    void onePlainCallerIsRefusedBeyondTheCapWhileAnotherConnectionStillSubscribes() throws Exception {
        try (LatencyServerNode server = overSockets(context(NO_CHECK_MILLIS))) {
            final LatencyService service = service(client, server);
            final EstimateListener listener = listenerOn(orb(), estimate -> { });
            final List<Long> accepted = new ArrayList<>();
            final List<String> refusals = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                try {
                    accepted.add(service.subscribe(listener, new short[0]));
                } catch (InvalidArgument refused) {
                    refusals.add(refused.reason);
                }
            }
            assertEquals(64, accepted.size(), "the default cap");
            assertEquals(936, refusals.size());
            assertTrue(refusals.get(0).matches("the plain IIOP connection from 127\\.0\\.0\\.1:\\d+ already holds 64 subscriptions,"
                + " the most one caller may hold: 64 \\(limits.max_subscriptions_per_caller\\); unsubscribe one first"), refusals.get(0));
            final String scrape = scrape(server);
            assertEquals(936, metric(scrape, "latency_server_refusals_total{operation=\"subscribe\",reason=\"caller_limit\"}"));
            assertEquals(64, metric(scrape, "latency_server_subscribers{kind=\"estimate\"}"));

            final LatencyService other = service(orb(), server);
            other.subscribe(listener, new short[0]);    // another connection is another caller
            service.unsubscribe(accepted.get(0));
            service.subscribe(listener, new short[0]);  // a place freed by unsubscribing is the caller's again
            assertEquals(65, metric(scrape(server), "latency_server_subscribers{kind=\"estimate\"}"), "64 - 1 + 1, and the other caller's");
        }
    }

    @Test
    void theCapIsTheConfiguredOneAndCountsBothKindsOfSubscriptionTogether() throws Exception {
        final Path config = configuration(ServerYaml.named("CapServer").limits("max_subscriptions_per_caller", 2));
        try (LatencyServerNode server = LatencyServerNode.launch(new ServerContext().configFile(config).metricsPort(0)
            .subscriberCheckIntervalMillis(NO_CHECK_MILLIS))) {
            final LatencyService service = service(client, server);
            final EstimateListener listener = listenerOn(orb(), estimate -> { });
            service.subscribe(listener, new short[0]);
            service.subscribe_measurements(measurementListenerOn(orb()), new short[0]);    // open server: anyone may
            final InvalidArgument refused = org.junit.jupiter.api.Assertions.assertThrows(InvalidArgument.class,
                () -> service.subscribe(listener, new short[] {1}));
            assertTrue(refused.reason.contains("already holds 2 subscriptions") && refused.reason.contains(
                "2 (limits.max_subscriptions_per_caller)"), refused.reason);
        }
    }

    @Test
    void aListenerWhoseOrbIsShutDownIsReapedByTheLivenessCheckThoughNothingIsPushed() throws Exception {
        try (LatencyServerNode server = LatencyServerNode.launch(context(CHECK_MILLIS))) {
            final LatencyService service = service(client, server);
            final AtomicInteger pushes = new AtomicInteger();
            final ORB listenerOrb = orb();
            service.subscribe(listenerOn(listenerOrb, estimate -> pushes.incrementAndGet()), new short[] {1});
            assertEquals(1, metric(scrape(server), "latency_server_subscribers{kind=\"estimate\"}"));

            listenerOrb.shutdown(true);
            awaitTrue(() -> metric(scrape(server), "latency_server_subscribers{kind=\"estimate\"}") == 0, "the listener is reaped");
            final String scrape = scrape(server);
            assertEquals(1, metric(scrape, "latency_server_subscribers_reaped_total{reason=\"failed_calls\"}"), scrape);
            assertEquals(0, pushes.get(), "connection 1 has no estimate, so nothing was pushed: the check found it");
        }
    }

    @Test
    void aListenerWhoseOrbIsShutDownIsReapedByFailedPushes() throws Exception {
        try (LatencyServerNode server = LatencyServerNode.launch(context(NO_CHECK_MILLIS))) {
            final LatencyService service = service(client, server);
            final ORB listenerOrb = orb();
            final BlockingQueue<Estimate> received = new LinkedBlockingQueue<>();
            service.subscribe(listenerOn(listenerOrb, received::add), new short[] {1});
            pushLoad(service, 10);
            assertTrue(received.poll(WITHIN_MILLIS, TimeUnit.MILLISECONDS) != null, "the listener gets pushes while it lives");

            listenerOrb.shutdown(true);
            final AtomicInteger load = new AtomicInteger(10);
            awaitTrue(() -> {
                pushLoad(service, load.get() == 10 ? 80 : 10);    // each a change, so each a push
                load.set(load.get() == 10 ? 80 : 10);
                return metric(scrape(server), "latency_server_subscribers{kind=\"estimate\"}") == 0;
            }, "the listener is reaped");
            assertEquals(1, metric(scrape(server), "latency_server_subscribers_reaped_total{reason=\"failed_calls\"}"));
        }
    }

    @Test
    void aPushToAListenerObjectThatWasDeactivatedReapsItAsGone() throws Exception {
        try (LatencyServerNode server = LatencyServerNode.launch(context(NO_CHECK_MILLIS))) {
            final LatencyService service = service(client, server);
            final ORB listenerOrb = orb();
            final POA poa = POAHelper.narrow(listenerOrb.resolve_initial_references("RootPOA"));
            poa.the_POAManager().activate();
            final EstimateListenerPOATie servant = new EstimateListenerPOATie(estimate -> { });
            final byte[] id = poa.activate_object(servant);
            service.subscribe(EstimateListenerHelper.narrow(poa.id_to_reference(id)), new short[] {1});
            poa.deactivate_object(id);    // its ORB answers, the object is gone

            pushLoad(service, 80);
            awaitTrue(() -> metric(scrape(server), "latency_server_subscribers{kind=\"estimate\"}") == 0, "the listener is reaped");
            assertEquals(1, metric(scrape(server), "latency_server_subscribers_reaped_total{reason=\"listener_gone\"}"));
        }
    }

    @Test
    void aSlowListenerThatAnswersIsNeverReaped() throws Exception {
        try (LatencyServerNode server = LatencyServerNode.launch(context(CHECK_MILLIS))) {
            final LatencyService service = service(client, server);
            final SlowListener slow = new SlowListener();
            final ORB listenerOrb = orb();
            final POA poa = POAHelper.narrow(listenerOrb.resolve_initial_references("RootPOA"));
            poa.the_POAManager().activate();
            service.subscribe(EstimateListenerHelper.narrow(poa.servant_to_reference(slow)), new short[] {1});

            final int[] loads = {10, 80, 10, 80};
            for (final int load : loads) {
                pushLoad(service, load);
            }
            awaitTrue(() -> slow.checks.get() >= 10 && slow.received.size() == loads.length,
                "ten liveness checks answered and every change received");
            assertEquals(List.of(11, 33, 11, 33), slow.received.stream().map(e -> (int) e.cpu_state).toList(),
                "LOW-LOW, HIGH-HIGH, in order");
            final String scrape = scrape(server);
            assertEquals(1, metric(scrape, "latency_server_subscribers{kind=\"estimate\"}"), scrape);
            for (final String reason : List.of("listener_gone", "failed_calls", "queue_full", "no_delivery_thread")) {
                assertEquals(0, metric(scrape, "latency_server_subscribers_reaped_total{reason=\"" + reason + "\"}"), reason);
            }
        }
    }

    /** A listener that takes its time over every call, pushes and liveness checks alike, but answers well within the time-out. */
    private static final class SlowListener extends EstimateListenerPOA {
        final AtomicInteger checks = new AtomicInteger();
        final List<Estimate> received = new CopyOnWriteArrayList<>();

        @Override
        public void estimate_changed(final Estimate changed) {
            sleep(200);
            received.add(changed);
        }

        @Override
        public boolean _non_existent() {
            sleep(200);
            checks.incrementAndGet();
            return false;
        }
    }

    // ---- helpers -------------------------------------------------------------------------------

    private ServerContext context(final long checkIntervalMillis) throws IOException {
        return new ServerContext().configFile(configuration(ServerYaml.named("SubscriberServer"))).metricsPort(0)
            .subscriberCheckIntervalMillis(checkIntervalMillis);
    }

    /** One pushed QoS 1 connection, index_ref 1, on the thesis's TAC-4 profile. */
    private Path configuration(final ServerYaml server) throws IOException {
        return TestbedConfigLines.pushedWs1Ws2OnAtmPort(server.stateFile(Path.of("subscribers.state.json"))
                .profile(TestbedConfigLines.profiles().resolve("thesis-tac4-corba.json")), "ws1")
            .connection(Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0))
            .writeTo(directory.resolve("subscribers.yaml"));
    }

    /**
     * A server whose ORB takes no calls through JacORB's in-process loopback, so that this JVM's clients
     * reach it over loopback sockets as other processes would (JacORB reads the switch at the ORB's start).
     */
    private static LatencyServerNode overSockets(final ServerContext context) throws Exception {
        final String loopback = "jacorb.iiop.enable_loopback";
        final String before = System.getProperty(loopback);
        System.setProperty(loopback, "off");
        try {
            return LatencyServerNode.launch(context);
        } finally {
            if (before == null) {
                System.clearProperty(loopback);
            } else {
                System.setProperty(loopback, before);
            }
        }
    }

    private ORB orb() {
        final ORB orb = PlainOrbs.withoutRetries();
        orbs.add(orb);
        return orb;
    }

    private static LatencyService service(final ORB orb, final LatencyServerNode server) {
        return LatencyServiceHelper.narrow(orb.string_to_object(server.serverIor()));
    }

    private static EstimateListener listenerOn(final ORB orb, final java.util.function.Consumer<Estimate> changes) throws Exception {
        final POA poa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        poa.the_POAManager().activate();
        return EstimateListenerHelper.narrow(poa.servant_to_reference(new EstimateListenerPOATie(changes::accept)));
    }

    private static org.latencyserver.idl.latency.MeasurementListener measurementListenerOn(final ORB orb) throws Exception {
        final POA poa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        poa.the_POAManager().activate();
        return org.latencyserver.idl.latency.MeasurementListenerHelper.narrow(poa.servant_to_reference(
            new org.latencyserver.idl.latency.MeasurementListenerPOATie(request -> { })));
    }

    /** Both workstations' CPU at {@code cpuPercent}, the port at 50 %: 10 is LOW-LOW (code 11), 80 HIGH-HIGH (code 33). */
    private static void pushLoad(final LatencyService service, final int cpuPercent) {
        service.PutMibUpdates(new IdlMibUpdates((short) 1, (short) cpuPercent, (short) cpuPercent, (short) 50), (short) 1);
    }

    private static String scrape(final LatencyServerNode server) {
        try {
            return new String(URI.create(server.metricsUrl().orElseThrow()).toURL().openStream().readAllBytes(),
                StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError("cannot scrape " + server.metricsUrl() + ": " + e, e);
        }
    }

    /** @return the value of the series written exactly so (name and labels), or -1 when the page has none */
    private static double metric(final String scrape, final String series) {
        final Matcher value = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(scrape);
        return value.find() ? Double.parseDouble(value.group(1)) : -1;
    }

    private static void awaitTrue(final BooleanSupplier condition, final String what) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WITHIN_MILLIS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WITHIN_MILLIS + " ms: " + what);
            }
            Thread.sleep(50);
        }
    }

    private static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
