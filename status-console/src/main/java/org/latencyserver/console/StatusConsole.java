package org.latencyserver.console;

import java.io.IOException;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.idl.latency.EstimateListenerHelper;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.RunningComponent;
import org.latencyserver.orb.CallbackReach;
import org.latencyserver.orb.CertificateExpiryWarning;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.latencyserver.orb.ServerRoute;
import org.omg.CORBA.ORB;

/**
 * A running status console: its ORB (a client of the server, and the callback object the server
 * pushes estimate changes to), the feed that keeps its picture current and, unless only observed,
 * its web page. Start one with {@link #launch(ConsoleContext)}, in a test's JVM as in
 * {@link ConsoleMain}'s; stop it with {@link #close()}. {@link #readOnce(ConsoleContext)} reads the
 * table once for {@code --once}. With {@link ConsoleContext#allPartitions(boolean)} it shows every
 * partition of a partitioned deployment instead ({@link PartitionFeeds}, the page {@code partitions.html},
 * {@link #readAllPartitionsOnce}).
 *
 * <p>Thread-safe.
 */
public final class StatusConsole extends RunningComponent {
    private final ConsoleContext context;
    private final ORB orb;
    private final ServerRoute route;
    /** One server's feed; null when it shows every partition. */
    private final ServerFeed feed;
    /** Every partition's feeds ({@code --all-partitions}); null when it shows one server. */
    private final PartitionFeeds partitions;
    private ConsoleWebServer web;
    /** The own certificate's expiry check, with a certificate while serving only; set at start. */
    private volatile CertificateExpiryWarning expiryWarning;

    private StatusConsole(ConsoleContext context, ORB orb, ServerRoute route, ServerFeed feed, PartitionFeeds partitions) {
        this.context = context;
        this.orb = orb;
        this.route = route;
        this.feed = feed;
        this.partitions = partitions;
    }

    /**
     * Validates the context, then serves: the web page's port is bound when this returns.
     *
     * @param context what to show and where
     * @return the running console
     * @throws IllegalArgumentException when the context is not valid (naming the setting)
     * @throws IOException naming the address and port when the web page's port cannot be bound
     * @throws CallbackReach.Unreachable when the callback address ({@code --host}) is loopback and the server is not
     */
    public static StatusConsole launch(ConsoleContext context) throws IOException {
        return startedOrClosed(connect(context.validate(), true), StatusConsole::start);
    }

    /**
     * Reads the server's table once, without serving anything: no callback object, so no port of its own (and no
     * {@link CallbackReach} check: nothing is pushed).
     *
     * @param context which server
     * @return the snapshot; {@link ConsoleSnapshot#reachable()} says whether the server answered
     * @throws IllegalArgumentException when the context is not valid
     */
    public static ConsoleSnapshot readOnce(ConsoleContext context) {
        try (StatusConsole console = connect(context.validate(), false)) {
            if (console.feed == null) {
                throw new IllegalArgumentException("the console shows every partition: read them with readAllPartitionsOnce");
            }
            return console.feed.refreshOnce();
        }
    }

    /**
     * Lists the partitions and reads each one's table once, without serving anything ({@code --all-partitions --once}).
     *
     * @param context which naming service and root name, with {@link ConsoleContext#allPartitions(boolean)}
     * @return the snapshot; {@link PartitionsSnapshot#down()} names the partitions whose server did not answer
     * @throws IllegalArgumentException when the context is not valid or does not ask for every partition
     */
    public static PartitionsSnapshot readAllPartitionsOnce(ConsoleContext context) {
        try (StatusConsole console = connect(context.validate(), false)) {
            if (console.partitions == null) {
                throw new IllegalArgumentException("the console shows one server: read it with readOnce");
            }
            return console.partitions.refreshOnce();
        }
    }

    /**
     * @param pushed whether it takes the server's pushes: serves a callback object on {@code --host}/{@code --port} (after
     *               {@link CallbackReach}'s check) and subscribes; false to read once, which serves nothing
     */
    private static StatusConsole connect(ConsoleContext context, boolean pushed) {
        ORB orb = OrbSupport.init(new String[0], OrbSupport.withListenerTuning(
            OrbSupport.properties(context.callbackHost(), context.callbackPort(), ConsoleContext.REPLY_TIMEOUT_MILLIS)));
        ServerRoute route = null;
        try {
            if (pushed) {
                // Before the callback object listens and before any call: a server elsewhere cannot push to loopback.
                CallbackReach.requireReachable(orb, context.serverReference(), context.naming(), context.callbackHost(),
                    "this console's", "--host");
            }
            // Calls to the server over TLS when a certificate is given; the listener and the naming service stay plain.
            route = ServerRoute.of(orb, context.tls(), context.callbackHost(), ConsoleContext.REPLY_TIMEOUT_MILLIS);
            if (context.allPartitions()) {
                return new StatusConsole(context, orb, route, null, new PartitionFeeds(orb, route, context.naming(),
                    context.serverReference(), context.refreshMillis(), pushed));
            }
            FeedPoker poker = new FeedPoker();
            EstimateListener listener = !pushed ? null : EstimateListenerHelper.narrow(
                OrbSupport.serveOnRootPoa(orb, poker, "the console's ORB cannot serve its callback object"));
            ServerRoute reach = route;
            ServerFeed feed = new ServerFeed(context.serverReference(),
                () -> LatencyServiceHelper.narrow(reach.reach(References.resolveServer(orb, context.serverReference(), context.naming(),
                    context.nodes()))),
                listener, context.refreshMillis(), System::currentTimeMillis);
            poker.feed(feed);
            return new StatusConsole(context, orb, route, feed, null);
        } catch (RuntimeException e) {
            closeOrb(orb, route);
            throw e;
        }
    }

    private synchronized void start() throws IOException {
        OrbSupport.runInBackground(orb, "console-orb");
        // A WARN at start and daily in the certificate's last 30 days: the console has no metrics endpoint.
        expiryWarning = context.tls() == null ? null : CertificateExpiryWarning.start(context.tls());
        if (feed != null && context.onSnapshot() != null) {
            feed.observe(context.onSnapshot());
        }
        if (partitions != null && context.onPartitions() != null) {
            partitions.observe(context.onPartitions());
        }
        if (context.webPage()) {
            try {
                final OperatorHttps https = context.https() == null ? null : OperatorHttps.of(context.https());
                web = feed != null ? new ConsoleWebServer(feed, context.bindAddress(), context.httpPort(), context.maxStreams(), https)
                    : new ConsoleWebServer(partitions, "partitions.html", context.bindAddress(), context.httpPort(), context.maxStreams(),
                        https);
            } catch (IOException e) {
                throw new IOException("cannot serve on " + context.bindAddress() + ":" + context.httpPort() + ": " + e.getMessage(), e);
            }
            web.start();
        }
        if (feed != null) {
            feed.start();
        } else {
            partitions.start();
        }
    }

    /** @return the web page's port, or -1 when it serves no page */
    public synchronized int httpPort() {
        return web == null ? -1 : web.port();
    }

    /**
     * @return the web page's URL, e.g. {@code http://127.0.0.1:8470/} ({@code https://} for operators over HTTPS), or null
     *     when it serves no page
     */
    public synchronized String url() {
        if (web == null) {
            return null;
        }
        final String host = context.bindAddress().indexOf(':') >= 0 && !context.bindAddress().startsWith("[")
            ? "[" + context.bindAddress() + "]" : context.bindAddress();
        return web.scheme() + "://" + host + ":" + web.port() + "/";
    }

    /**
     * With a certificate: told when a renewed one is read ({@link CertificateExpiryWarning#onCertificateChange}), as the
     * ready file's {@code tls_certificate_expires} changes then.
     */
    @Override
    public synchronized void onReadyFileChange(final Runnable changed) {
        if (expiryWarning != null) {
            expiryWarning.onCertificateChange(changed);
        }
    }

    /**
     * @return its ready file's content as {@code docs/ready-files.md} lists it: the port {@code callback} (its callback
     *         objects', where the servers push), the port {@code http} and URL {@code console}, and with a
     *         certificate the fact {@code tls_certificate_expires} (its notAfter, ISO-8601)
     */
    @Override
    public synchronized ReadyFile.Builder readyFile() {
        ReadyFile.Builder ready = ReadyFile.of(Component.CONSOLE).port("callback", OrbSupport.listenPort(orb));
        if (web != null) {
            ready.port("http", httpPort()).url("console", url());
        }
        if (expiryWarning != null) {
            ready.fact(CertificateExpiryWarning.READY_FACT, expiryWarning.expires());
        }
        return ready;
    }

    /** Stops the web page, the feed and the ORB. */
    @Override
    protected void stop() {
        if (expiryWarning != null) {
            expiryWarning.close();
        }
        if (web != null) {
            web.close();
        }
        if (feed != null) {
            feed.close();
        } else {
            partitions.close();
        }
        closeOrb(orb, route);
    }

    private static void closeOrb(ORB orb, ServerRoute route) {
        if (route != null) {
            route.close();
        }
        orb.shutdown(false);
    }
}
