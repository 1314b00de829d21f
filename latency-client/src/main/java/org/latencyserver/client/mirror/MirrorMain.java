package org.latencyserver.client.mirror;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.idl.latency.EstimateListenerHelper;
import org.latencyserver.idl.latency.EstimateListenerPOA;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.mirror.EstimateMirrorWriter;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./latency mirror}: keeps a host-local, memory-mapped copy of a Latency Server's estimates
 * (layout: {@code docs/mirror-layout.md}) that applications on this host read without a call.
 *
 * <p>Exit codes: 0 after Ctrl-C, 1 when the file cannot be created, 2 for bad arguments or when the
 * server, at first contact, lacks a connection named by {@code --connections}.
 */
@Command(name = "mirror", mixinStandardHelpOptions = true, version = "latency mirror 0.1.0",
    description = "Mirror a Latency Server's estimates into a memory-mapped file on this host "
        + "(read it with the Java EstimateMirror or the C latency_mirror.h; layout: docs/mirror-layout.md).")
public final class MirrorMain implements Callable<Integer> {

    @Option(names = "--server", required = true, paramLabel = "REF",
        description = "The server: IOR/corbaloc, a file holding one, or a name in --naming (e.g. LatencyServer).")
    private String serverReference;

    @Option(names = "--naming", paramLabel = "REF", description = "Naming service, e.g. corbaloc::127.0.0.1:2809/NameService.")
    private String naming;

    @Option(names = "--file", required = true, paramLabel = "PATH", description = "The mirror file to create (replaced atomically).")
    private Path file;

    @Option(names = "--connections", paramLabel = "LIST", split = ",",
        description = "index_refs to mirror, e.g. 1,2,6 (default: every connection of the server).")
    private short[] connections = new short[0];

    @Option(names = "--heartbeat-millis", description = "Heartbeat period written to the file, ms (default: ${DEFAULT-VALUE}).")
    private int heartbeatMillis = 100;

    @Option(names = "--poll-millis", description = "Re-read period when the server does not push, and first retry, ms (default: ${DEFAULT-VALUE}).")
    private long pollMillis = 1_000;

    @Option(names = "--refresh-millis", description = "Full re-read period while pushed, a safety net, ms (default: ${DEFAULT-VALUE}).")
    private long refreshMillis = 10_000;

    @Option(names = "--listen-host", description = "Address the server pushes to (this host as the server reaches it; default: ${DEFAULT-VALUE}).")
    private String listenHost = "127.0.0.1";

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new MirrorMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final String problem = checkArguments();
        if (problem != null) {
            System.err.println("latency mirror: " + problem);
            return 2;
        }
        final Set<Short> followed = new TreeSet<>();
        for (final short indexRef : connections) {
            followed.add(indexRef);
        }
        final EstimateMirrorWriter mirrorFile;
        try {
            mirrorFile = EstimateMirrorWriter.create(file, heartbeatMillis);
        } catch (IOException | RuntimeException e) {
            System.err.println("latency mirror: cannot create " + file + ": " + e.getMessage());
            return 1;
        }
        final MirrorWriterLoop writer = new MirrorWriterLoop(mirrorFile, heartbeatMillis, System::currentTimeMillis);
        writer.start();
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties(listenHost, 0, 5_000));
        try {
            final POA poa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
            poa.the_POAManager().activate();
            final EstimateListener listener = EstimateListenerHelper.narrow(poa.servant_to_reference(new Listener(writer)));
            final MirrorFeed feed = new MirrorFeed(
                () -> LatencyServiceHelper.narrow(References.resolve(orb, serverReference, naming)),
                listener, followed, pollMillis, refreshMillis, writer::submit, System::currentTimeMillis);
            final Thread orbThread = new Thread(orb::run, "mirror-orb");
            orbThread.setDaemon(true);
            orbThread.start();
            feed.start();
            final CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    feed.close();
                    writer.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                stopped.countDown();
            }, "mirror-stop"));
            while (feed.firstContact() == MirrorFeed.FirstContact.PENDING) {
                Thread.sleep(20);
            }
            if (feed.firstContact() == MirrorFeed.FirstContact.UNKNOWN_CONNECTIONS) {
                System.err.println("latency mirror: " + feed.firstContactProblem());
                return 2;
            }
            System.out.println("mirror: " + feed.followedCount() + " connection(s) of " + serverReference + " in " + file.toAbsolutePath()
                + " (heartbeat every " + heartbeatMillis + " ms)");
            System.out.flush();
            stopped.await();
            return 0;
        } finally {
            orb.shutdown(false);
        }
    }

    private String checkArguments() {
        if (heartbeatMillis < 10 || heartbeatMillis > 60_000) {
            return "--heartbeat-millis must be 10..60000, was " + heartbeatMillis;
        }
        if (pollMillis < 10) {
            return "--poll-millis must be >= 10, was " + pollMillis;
        }
        if (refreshMillis < pollMillis) {
            return "--refresh-millis must be >= --poll-millis (" + pollMillis + "), was " + refreshMillis;
        }
        for (final short indexRef : connections) {
            if (indexRef < 0) {
                return "--connections: index_ref must be 0..32767, was " + indexRef;
            }
        }
        return null;
    }

    /** Pushed estimates go straight to the writer's queue (ORB thread; never blocks). */
    private static final class Listener extends EstimateListenerPOA {
        private final MirrorWriterLoop writer;

        Listener(final MirrorWriterLoop writer) {
            this.writer = writer;
        }

        @Override
        public void estimate_changed(final Estimate changed) {
            writer.submit(new MirrorCommand.Served(changed, System.nanoTime()));
        }
    }
}
