package org.latencyserver.peer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ComponentMain;
import org.latencyserver.launch.ComponentMain.Refusal;
import org.latencyserver.launch.ReadinessOptions;
import org.latencyserver.orb.NameKeeper;
import org.latencyserver.orb.References;
import org.latencyserver.orb.TlsClientOptions;
import org.latencyserver.orb.TlsStores;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./latency peer-agent}: the echo end of QoS 3/4 measurements and of the profiler's round
 * trips. Serves {@code EchoPeer} (the thesis's {@code fm1} fixed arrays and an octet sequence of any
 * size), optionally plain TCP and UDP echo, writes its IOR to a file and, given a naming service,
 * registers as {@code peers/NAME}, the name client agents look a connection's peer node up by, and
 * keeps it bound ({@link NameKeeper}) should the naming service be restarted without its bindings.
 *
 * <p>Only parses the command line: {@link PeerAgent} runs the agent from a {@link PeerAgentContext}.
 * Once it serves it prints one line starting {@code peer-agent NAME ready} for people and writes
 * {@code --ready-file} for programs ({@code docs/ready-files.md}). Exit codes: stopped by SIGTERM, it
 * closes, deletes its ready file and exits 143 (128 + 15), as a JVM does; Ctrl-C likewise exits 130;
 * 1 when it cannot start (the reason printed), 2 usage, or a naming service that cannot be reached or
 * refuses the name (one line; no IOR file is written then).
 */
@Command(name = "peer-agent", mixinStandardHelpOptions = true, version = "latency peer-agent 0.1.0",
    description = "Run the echo end of round-trip measurements (fm1, octet sequences, plain TCP/UDP).")
public final class PeerAgentMain implements Callable<Integer> {

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

    @Option(names = "--tls-port", paramLabel = "PORT", description = {"Also serve the echo over IIOP/TLS on this port with"
        + " --tls-keystore's certificate (peer-NODE.p12); 0 any free port, -1 none (default: ${DEFAULT-VALUE}).",
        "Client agents with --pin-peers measure only over it. The IOR and peers/NODE then carry both addresses."})
    private int tlsPort = -1;

    /** Ready once it serves. */
    @Mixin
    private ReadinessOptions readiness = new ReadinessOptions();

    /** This peer's certificate: for binding {@code peers/NODE} over IIOP/TLS, and for serving over TLS ({@code --tls-port}). */
    @Mixin
    private TlsClientOptions tls = new TlsClientOptions();

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new PeerAgentMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final PeerAgentContext context = new PeerAgentContext().node(name)
            .iorFile(iorFile != null ? iorFile : Path.of("peer-" + name + ".ior"))
            .naming(naming).host(host).corbaPort(port).tcpPort(tcpPort).udpPort(udpPort).tlsPort(tlsPort);
        return ComponentMain.serve(Component.PEER_AGENT, readiness.readyFile(), "peer-agent " + name, () -> {
            ComponentMain.validate(() -> context.namingTls(namingTls()).validate());
            try {
                return PeerAgent.launch(context);
            } catch (References.ReferenceException e) {
                throw Refusal.usage("cannot register as " + context.registeredName() + ": " + e.getMessage() + "; "
                    + NameKeeper.WHAT_TO_DO + ".");
            } catch (IOException e) {
                throw Refusal.failed("cannot start: " + e.getMessage());
            }
        }, peer -> {
            System.out.println(readyLine(peer));
            System.out.flush();
        });
    }

    /** @return the stores for binding and serving over TLS, or null without {@code --tls-keystore} */
    private TlsStores namingTls() {
        final TlsStores stores = tls.stores();
        if (stores != null && naming == null && tlsPort < 0) {
            throw new IllegalArgumentException("--tls-keystore is for binding in a naming service (--naming) or serving over"
                + " TLS (--tls-port): give one of them too");
        }
        return stores;
    }

    /** @return the line printed for people once it serves */
    private String readyLine(final PeerAgent peer) {
        final StringBuilder ready = new StringBuilder("peer-agent ").append(name).append(" ready: IOR in ")
            .append(iorFile != null ? iorFile.toAbsolutePath() : Path.of("peer-" + name + ".ior").toAbsolutePath());
        if (naming != null) {
            ready.append(", registered as peers/").append(name);
        }
        if (peer.tcpPort() >= 0) {
            ready.append(", tcp echo ").append(host).append(':').append(peer.tcpPort());
        }
        if (peer.udpPort() >= 0) {
            ready.append(", udp echo ").append(host).append(':').append(peer.udpPort());
        }
        if (peer.tlsPort() >= 0) {
            ready.append(", IIOP/TLS ").append(host).append(':').append(peer.tlsPort());
        }
        return ready.toString();
    }
}
