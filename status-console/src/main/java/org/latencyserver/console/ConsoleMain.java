package org.latencyserver.console;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.idl.latency.EstimateListenerHelper;
import org.latencyserver.idl.latency.EstimateListenerPOA;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./latency console}: the operator's status console, a CORBA client of the server (BRIEF §8).
 * By default a web page on loopback, pushed live; {@code --watch} a live table in the terminal;
 * {@code --once} the table printed once, for scripts.
 *
 * <p>In web mode prints exactly one line {@code console at http://HOST:PORT/} once it listens. Exit
 * codes: 0 after a clean stop (or a good {@code --once}), 1 when the server cannot be reached for
 * {@code --once} or the port cannot be bound, 2 usage.
 */
@Command(name = "console", mixinStandardHelpOptions = true, version = "latency console 0.1.0",
    description = "The Latency Server's status console: a live web page, or a table in the terminal.")
public final class ConsoleMain implements Callable<Integer> {

    @Option(names = "--server", required = true, paramLabel = "REF",
        description = "The server: its IOR file (latency-server.ior), an IOR/corbaloc, or its name with --naming.")
    private String serverReference;

    /** An operator's certificate: the thesis's table ({@code RequestTableStatus}) is an operator call. */
    @picocli.CommandLine.Mixin
    private org.latencyserver.orb.TlsClientOptions tls = new org.latencyserver.orb.TlsClientOptions();

    @Option(names = "--naming", paramLabel = "REF", description = "Naming service, e.g. corbaloc::127.0.0.1:2809/NameService.")
    private String naming;

    @Option(names = "--bind", description = "Address of the web page (default: ${DEFAULT-VALUE}, loopback only).")
    private String bind = "127.0.0.1";

    @Option(names = "--http-port", description = "Port of the web page; 0 for any free port (default: ${DEFAULT-VALUE}).")
    private int httpPort = 8470;

    @Option(names = "--max-streams", paramLabel = "N",
        description = "Most web pages kept live at once; more get HTTP 503 until one closes (default: ${DEFAULT-VALUE}).")
    private int maxStreams = 64;

    @Option(names = "--refresh-millis", description = "Re-read the table this often, ms; pushes refresh at once (default: ${DEFAULT-VALUE}).")
    private long refreshMillis = 1_000;

    @Option(names = "--watch", description = "Show the table in this terminal, redrawn live; Ctrl-C to leave.")
    private boolean watch;

    @Option(names = "--once", description = "Print the table once and exit (exit 1 if the server cannot be reached).")
    private boolean once;

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new ConsoleMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (refreshMillis < 100) {
            System.err.println("latency console: --refresh-millis must be >= 100, was " + refreshMillis);
            return 2;
        }
        if (maxStreams < 1) {
            System.err.println("latency console: --max-streams must be >= 1, was " + maxStreams);
            return 2;
        }
        final org.latencyserver.orb.TlsStores stores;
        try {
            stores = tls.stores();
        } catch (IllegalArgumentException e) {
            System.err.println("latency console: " + e.getMessage());
            return 2;
        }
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 5_000));
        // Calls to the server over TLS when a certificate is given; the listener and the naming service stay plain.
        final org.latencyserver.orb.ServerRoute route = org.latencyserver.orb.ServerRoute.of(orb, stores, "127.0.0.1", 5_000);
        try {
            final POA poa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
            poa.the_POAManager().activate();
            final Poker poker = new Poker();
            final EstimateListener listener = EstimateListenerHelper.narrow(poa.servant_to_reference(poker));
            final ServerFeed feed = new ServerFeed(serverReference,
                () -> LatencyServiceHelper.narrow(route.reach(References.resolve(orb, serverReference, naming))),
                listener, refreshMillis,
                System::currentTimeMillis);
            poker.feed = feed;
            if (once) {
                final ConsoleSnapshot snapshot = feed.refreshOnce();
                if (!snapshot.reachable()) {
                    System.err.println("latency console: " + snapshot.problem() + " (" + serverReference + ")");
                    return 1;
                }
                System.out.print(TerminalTable.render(snapshot, System.currentTimeMillis()));
                return 0;
            }
            final Thread orbThread = new Thread(orb::run, "console-orb");
            orbThread.setDaemon(true);
            orbThread.start();
            final CountDownLatch stopped = new CountDownLatch(1);
            if (watch) {
                feed.observe(snapshot -> {
                    System.out.print("\033[H\033[2J" + TerminalTable.render(snapshot, System.currentTimeMillis()));
                    System.out.flush();
                });
                feed.start();
                Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "console-stop"));
                stopped.await();
                return 0;
            }
            final ConsoleWebServer web;
            try {
                web = new ConsoleWebServer(feed, bind, httpPort, maxStreams);
            } catch (java.io.IOException e) {
                System.err.println("latency console: cannot serve on " + bind + ":" + httpPort + ": " + e.getMessage());
                return 1;
            }
            web.start();
            feed.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                web.close();
                try {
                    feed.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                stopped.countDown();
            }, "console-stop"));
            System.out.println("console at http://" + bind + ":" + web.port() + "/");
            System.out.flush();
            stopped.await();
            return 0;
        } finally {
            route.close();
            orb.shutdown(false);
        }
    }

    /** The callback servant: a pushed estimate change makes the feed refresh at once. */
    private static final class Poker extends EstimateListenerPOA {
        private volatile ServerFeed feed;

        @Override
        public void estimate_changed(final Estimate changed) {
            final ServerFeed target = feed;
            if (target != null) {
                target.poke();
            }
        }
    }
}
