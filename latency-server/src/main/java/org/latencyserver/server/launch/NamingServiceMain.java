package org.latencyserver.server.launch;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./latency naming-service}: JacORB's CORBA Naming Service on a fixed port, so that every
 * component finds the others at {@code corbaloc::HOST:PORT/NameService}.
 */
@Command(name = "naming-service", mixinStandardHelpOptions = true, version = "latency naming-service 0.1.0",
    description = "Run a CORBA Naming Service (JacORB's) for the Latency Server's components.")
public final class NamingServiceMain implements Callable<Integer> {

    @Option(names = "--host", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    private String host = "127.0.0.1";

    @Option(names = "--port", description = "Port to listen on (default: ${DEFAULT-VALUE}).")
    private int port = 2809;

    @Option(names = "--ior-file", paramLabel = "PATH", description = "Also write the naming service's IOR here.")
    private Path iorFile;

    @Option(names = "--db-dir", paramLabel = "DIR",
        description = "Where the name server keeps its bindings across restarts (default: ${DEFAULT-VALUE}).")
    private Path dbDirectory = Path.of(System.getProperty("java.io.tmpdir"), "latency-naming");

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        final int exit = new CommandLine(new NamingServiceMain()).execute(args);
        if (exit != 0) {
            System.exit(exit);
        }
    }

    @Override
    public Integer call() {
        System.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        System.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        System.setProperty("OAIAddr", host);
        System.setProperty("OAPort", Integer.toString(port));
        System.setProperty("jacorb.naming.print_ior", "off");
        System.setProperty("jacorb.log.default.verbosity", "1");
        try {
            java.nio.file.Files.createDirectories(dbDirectory);
        } catch (java.io.IOException e) {
            System.err.println("latency naming-service: cannot create " + dbDirectory + ": " + e.getMessage());
            return 1;
        }
        System.setProperty("jacorb.naming.db_dir", dbDirectory.toAbsolutePath().toString());
        if (iorFile != null) {
            System.setProperty("jacorb.naming.ior_filename", iorFile.toAbsolutePath().toString());
        }
        System.err.println("naming service at corbaloc::" + host + ":" + port + "/NameService");
        // Blocks while the name server runs.
        org.jacorb.naming.NameServer.main(new String[0]);
        return 0;
    }
}
