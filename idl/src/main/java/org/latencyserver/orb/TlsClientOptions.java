package org.latencyserver.orb;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The command-line options of a process that writes to the server over IIOP/TLS (client agents,
 * the profiler's {@code load}, the emulator's push): {@code --tls-keystore}, {@code --tls-truststore}
 * and the environment variable with their password. Without a keystore the process talks plain IIOP.
 */
public final class TlsClientOptions {

    @Option(names = "--tls-keystore", paramLabel = "FILE",
        description = {"Call over IIOP/TLS with this certificate (PKCS#12, from ./latency certs): the server (an agent's,"
            + " operator's or planner's), or, for a peer agent, the naming service's TLS port",
            "(--naming corbaloc:ssliop:1.2@HOST:TLSPORT/NameService) to bind peers/NODE (peer-NODE.p12), and its TLS echo (--tls-port)."})
    private Path keystore;

    @Option(names = "--tls-truststore", paramLabel = "FILE",
        description = "The certificate authorities to trust (PKCS#12); required with --tls-keystore.")
    private Path truststore;

    @Option(names = "--tls-password-env", paramLabel = "NAME",
        description = "Environment variable holding the stores' password (default: ${DEFAULT-VALUE}).")
    private String passwordEnv = TlsStores.DEFAULT_PASSWORD_ENV;

    /**
     * @return the stores, or null when no keystore was given (plain IIOP)
     * @throws IllegalArgumentException when only one store is given, a store is unreadable or the password unset
     */
    public TlsStores stores() {
        return TlsStores.fromOptions("--tls", keystore, truststore, passwordEnv);
    }
}
