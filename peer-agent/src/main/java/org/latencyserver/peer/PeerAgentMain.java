package org.latencyserver.peer;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.latencyserver.idl.latency.EchoPeerPOATie;
import org.latencyserver.orb.NameKeeper;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./latency peer-agent}: the echo end of QoS 3/4 measurements and of the profiler's round
 * trips. Serves {@code EchoPeer} (the thesis's {@code fm1} fixed arrays and an octet sequence of any
 * size), optionally plain TCP and UDP echo, writes its IOR to a file and, given a naming service,
 * registers as {@code peers/NAME}, the name client agents look a connection's peer node up by, and
 * keeps it bound ({@link NameKeeper}) should the naming service be restarted without its bindings.
 *
 * <p>Prints one line starting {@code peer-agent NAME ready} on standard output once it serves.
 * Exit codes: 0 after a clean stop, 1 when it cannot start (the reason printed), 2 usage, or a
 * naming service that cannot be reached or refuses the name (one line; no IOR file is written then).
 */
@Command(name = "peer-agent", mixinStandardHelpOptions = true, version = "latency peer-agent 0.1.0",
    description = "Run the echo end of round-trip measurements (fm1, octet sequences, plain TCP/UDP).")
public final class PeerAgentMain implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(PeerAgentMain.class);

    @Option(names = "--name", required = true, paramLabel = "NODE",
        description = "The peer workstation's node name, as the server's configuration names it (e.g. ws2).")
    private String name;

    @Option(names = "--ior-file", paramLabel = "PATH", description = "Write the echo object's IOR here (default: peer-NODE.ior).")
    private Path iorFile;

    @Option(names = "--naming", paramLabel = "REF",
        description = "Register as peers/NODE in this naming service, e.g. corbaloc::127.0.0.1:2809/NameService.")
    private String naming;

    @Option(names = "--host", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    private String host = "127.0.0.1";

    @Option(names = "--port", description = "CORBA port; 0 for any free port (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--tcp-port", description = "Also echo over plain TCP on this port; 0 any free port, -1 none (default: ${DEFAULT-VALUE}).")
    private int tcpPort = -1;

    @Option(names = "--udp-port", description = "Also echo over UDP on this port; 0 any free port, -1 none (default: ${DEFAULT-VALUE}).")
    private int udpPort = -1;

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new PeerAgentMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final Path ior = iorFile != null ? iorFile : Path.of("peer-" + name + ".ior");
        // An IOR file of an earlier run names a peer that is gone: a start that fails leaves none.
        java.nio.file.Files.deleteIfExists(ior);
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties(host, port, 10_000));
        final EchoPeerServant servant = new EchoPeerServant();
        final org.omg.CORBA.Object reference;
        final SocketEcho sockets;
        try {
            final POA rootPoa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
            rootPoa.the_POAManager().activate();
            reference = rootPoa.servant_to_reference(new EchoPeerPOATie(servant));
            sockets = SocketEcho.start(host, tcpPort, udpPort);
        } catch (java.io.IOException e) {
            System.err.println("peer-agent " + name + ": cannot start: " + e.getMessage());
            orb.shutdown(false);
            return 1;
        }
        NameKeeper keeper = null;
        try {
            if (naming != null) {
                keeper = NameKeeper.bind(orb, naming, "peers/" + name, reference, NameKeeper.DEFAULT_CHECK_INTERVAL_MILLIS);
            }
            // Only once registered: a peer agent that did not start leaves no IOR file pointing at it.
            OrbSupport.writeIor(ior, orb.object_to_string(reference));
        } catch (References.ReferenceException e) {
            System.err.println("peer-agent " + name + ": cannot register as peers/" + name + ": " + e.getMessage() + "; "
                + NameKeeper.WHAT_TO_DO + ".");
            sockets.close();
            orb.shutdown(false);
            return 2;
        } catch (java.io.IOException e) {
            System.err.println("peer-agent " + name + ": cannot write " + ior + ": " + e.getMessage());
            if (keeper != null) {
                keeper.close();
            }
            sockets.close();
            orb.shutdown(false);
            return 1;
        }
        final NameKeeper nameKeeper = keeper;
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("peer-agent {} stopping after {} echoes", name, servant.echoCount());
            if (nameKeeper != null) {
                nameKeeper.close();
            }
            try {
                sockets.close();
            } catch (java.io.IOException e) {
                LOG.warn("closing the socket echo: {}", e.getMessage());
            }
            orb.shutdown(false);
            stopped.countDown();
        }, "peer-agent-shutdown"));
        final StringBuilder ready = new StringBuilder("peer-agent ").append(name).append(" ready: IOR in ")
            .append(ior.toAbsolutePath());
        if (naming != null) {
            ready.append(", registered as peers/").append(name);
        }
        if (sockets.tcpPort() >= 0) {
            ready.append(", tcp echo ").append(host).append(':').append(sockets.tcpPort());
        }
        if (sockets.udpPort() >= 0) {
            ready.append(", udp echo ").append(host).append(':').append(sockets.udpPort());
        }
        System.out.println(ready);
        System.out.flush();
        orb.run();
        stopped.await();
        return 0;
    }
}
