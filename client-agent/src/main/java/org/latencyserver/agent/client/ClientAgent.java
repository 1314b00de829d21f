package org.latencyserver.agent.client;

import java.util.Random;
import org.latencyserver.agent.measure.AdaptiveTarget;
import org.latencyserver.agent.probe.PathProber;
import org.latencyserver.agent.probe.ProbeSettings;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.MeasurementListener;
import org.latencyserver.idl.latency.MeasurementListenerHelper;
import org.latencyserver.idl.latency.MeasurementListenerPOA;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.RunningComponent;
import org.latencyserver.orb.CallbackReach;
import org.latencyserver.orb.CertificateExpiryWarning;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.latencyserver.orb.ServerRoute;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running client agent: its ORB and the callback object the server pushes measurement requests
 * to, the {@link MeasurementAgent} that measures them and, unless probing is off, the
 * {@link PathProber}. Start one with {@link #launch(ClientAgentContext)}, in a test's JVM as in
 * {@link ClientAgentMain}'s; stop it with {@link #close()}. It runs whether or not the server answers
 * yet: the agent keeps trying.
 *
 * <p>Thread-safe.
 */
public final class ClientAgent extends RunningComponent {
    private static final Logger LOG = LoggerFactory.getLogger(ClientAgent.class);
    /** QoS levels whose connections agents measure (3: averages, 4: bounds). */
    private static final int MEASURED_QOS_FROM = 3;

    private final ClientAgentContext context;
    private final AgentSettings settings;
    private final ORB orb;
    private final ServerRoute route;
    private final ServerConnection server;
    /** The route of pinned round trips, with --pin-peers only. */
    private final PinnedPeerRoute pinnedPeers;
    private MeasurementAgent agent;
    private PathProber prober;
    /** The own certificate's expiry check, with a certificate only; set at start. */
    private volatile CertificateExpiryWarning expiryWarning;

    private ClientAgent(ClientAgentContext context, AgentSettings settings, ORB orb, ServerRoute route,
                        PinnedPeerRoute pinnedPeers) {
        this.context = context;
        this.settings = settings;
        this.orb = orb;
        this.route = route;
        this.pinnedPeers = pinnedPeers;
        this.server = new ServerConnection(() ->
            LatencyServiceHelper.narrow(route.reach(References.resolveServer(orb, context.serverReference(), context.naming(),
                context.clientNodes()))));
    }

    /**
     * Validates the context and starts measuring (and probing).
     *
     * @param context what to measure and how
     * @return the running agent
     * @throws IllegalArgumentException when the context is not valid (naming the setting)
     * @throws CallbackReach.Unreachable when the callback address is loopback and the server is not
     */
    public static ClientAgent launch(ClientAgentContext context) {
        context.validate();
        final AdaptiveTarget adaptive = context.adaptiveHalfWidthMillis() == null ? null
            : AdaptiveTarget.halfWidth(context.adaptiveHalfWidthMillis());
        final AgentSettings settings = new AgentSettings(context.agentName(), context.clientNodes(), context.pollIntervalMillis(),
            adaptive, context.intervalMicros() * 1_000L, context.jitWarmupSeconds() * 1_000_000_000L);
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties(context.host(), context.port(),
            context.callTimeoutMillis()));
        ServerRoute route = null;
        PinnedPeerRoute pinnedPeers = null;
        try {
            // Before the callback object listens and before any call: a server elsewhere cannot push to loopback.
            CallbackReach.requireReachable(orb, context.serverReference(), context.naming(), context.host(), "this agent's",
                "--host");
            // With a certificate, calls to the server go through a TLS-only ORB; peers and the naming service stay plain.
            route = ServerRoute.of(orb, context.tls(), context.host(), context.callTimeoutMillis());
            // With --pin-peers, round trips too go through a TLS-only ORB, each checked against its node's peer certificate.
            pinnedPeers = context.pinPeers()
                ? PinnedPeerRoute.of(orb, context.tls(), context.revokedSerials(), context.host(),
                    context.callTimeoutMillis()) : null;
            final ClientAgent client = new ClientAgent(context, settings, orb, route, pinnedPeers);
            client.start();
            return client;
        } catch (RuntimeException e) {
            if (route != null) {
                route.close();
            }
            if (pinnedPeers != null) {
                pinnedPeers.close();
            }
            orb.shutdown(false);
            throw e;
        }
    }

    private synchronized void start() {
        // A WARN at start and daily in the certificate's last 30 days: the agent has no metrics endpoint.
        expiryWarning = context.tls() == null ? null : CertificateExpiryWarning.start(context.tls());
        final Forwarder forwarder = new Forwarder();
        final MeasurementListener listener = MeasurementListenerHelper.narrow(
            OrbSupport.serveOnRootPoa(orb, forwarder, "the agent's ORB cannot serve its callback object"));
        final PeerDirectory peers = new PeerDirectory(orb, context.peerReferences(), context.naming(), pinnedPeers);
        agent = new MeasurementAgent(server, peers, settings, listener, System::nanoTime);
        forwarder.agent = agent;
        if (context.probing()) {
            prober = new PathProber(new ServerProbeLink(server), peers, settings::measuresFor, agent::measuringNow,
                new ProbeSettings(settings.agentName(), context.probeReportMillis(), ProbeSettings.DEFAULT_REFRESH_INTERVAL_MILLIS),
                new Random());
        }
        OrbSupport.runInBackground(orb, "client-agent-orb");
        agent.start();
        if (prober != null) {
            prober.start();
        }
    }

    /** @return its name, as the server logs it with each result */
    public String name() {
        return settings.agentName();
    }

    /** @return how many measurements it refused because a peer was not the pinned one (--pin-peers); 0 without pinning */
    public synchronized long pinRefusals() {
        return agent == null ? 0 : agent.pinRefusals();
    }

    /** @return whether it probes */
    public synchronized boolean probing() {
        return prober != null;
    }

    /**
     * Asks the server which connections this agent measures: QoS 3 and 4 connections whose client
     * node it measures for.
     *
     * @return how many, or -1 when the server cannot be reached now
     */
    public int measuredConnections() {
        try {
            int count = 0;
            for (final ConnectionInfo connection : server.get().list_connections()) {
                if (connection.quality >= MEASURED_QOS_FROM && settings.measuresFor(connection.client_node_name)) {
                    count++;
                }
            }
            return count;
        } catch (SystemException | References.ReferenceException e) {
            server.invalidate();
            return -1;
        }
    }

    /**
     * With a certificate: told when a renewed one is read ({@link CertificateExpiryWarning#onCertificateChange}), as the
     * ready file's {@code tls_certificate_expires} changes then.
     */
    @Override
    public void onReadyFileChange(final Runnable changed) {
        final CertificateExpiryWarning warning = expiryWarning;
        if (warning != null) {
            warning.onCertificateChange(changed);
        }
    }

    /**
     * @return its ready file's content as {@code docs/ready-files.md} lists it: the port {@code callback} (its callback
     *         object's, where the server pushes requests), the facts {@code node}
     *         (the client nodes it measures for, comma-separated; {@code *} for every node), {@code name}
     *         and {@code connections} (when the server answers now), and with a certificate
     *         {@code tls_certificate_expires} (its notAfter, ISO-8601)
     */
    @Override
    public ReadyFile.Builder readyFile() {
        final ReadyFile.Builder ready = ReadyFile.of(Component.CLIENT_AGENT)
            .port("callback", OrbSupport.listenPort(orb))
            .fact("node", settings.clientNodes().isEmpty() ? "*" : String.join(",", context.clientNodes()))
            .fact("name", name());
        final int connections = measuredConnections();
        if (connections >= 0) {
            ready.fact("connections", connections);
        }
        if (expiryWarning != null) {
            ready.fact(CertificateExpiryWarning.READY_FACT, expiryWarning.expires());
        }
        return ready;
    }

    /** Stops probing, measuring, the route to the server and the ORB. */
    @Override
    protected void stop() {
        LOG.info("client agent stopping");
        try {
            if (prober != null) {
                prober.close();
            }
            if (agent != null) {
                agent.close();
            }
        } finally {
            if (expiryWarning != null) {
                expiryWarning.close();
            }
            route.close();
            if (pinnedPeers != null) {
                pinnedPeers.close();
            }
            orb.shutdown(false);
        }
    }

    /** The callback servant: pushed requests go to the agent. */
    private static final class Forwarder extends MeasurementListenerPOA {
        private volatile MeasurementAgent agent;

        @Override
        public void measurement_requested(final MeasurementRequest requested) {
            final MeasurementAgent target = agent;
            if (target != null) {
                target.offer(requested);
            }
        }
    }
}
