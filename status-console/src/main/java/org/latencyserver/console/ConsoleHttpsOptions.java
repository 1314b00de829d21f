package org.latencyserver.console;

import java.nio.file.Path;
import org.latencyserver.orb.TlsStores;
import picocli.CommandLine.Option;

/**
 * The console's options for its web page over HTTPS ({@link OperatorHttps}): {@code --https-keystore} (the page's
 * server certificate), {@code --https-truststore} (the authorities whose operators' client certificates it accepts)
 * and the environment variable with their password. Without them the page is plain HTTP, on loopback only.
 */
final class ConsoleHttpsOptions {

    @Option(names = "--https-keystore", paramLabel = "FILE", description = {"Serve the web page over HTTPS with this server"
        + " certificate (PKCS#12 with serverAuth usage, e.g. console-NAME.p12 from ./latency certs --console NAME);",
        "only browsers with an operator's client certificate are served. Required for a --bind off loopback."})
    private Path keystore;

    @Option(names = "--https-truststore", paramLabel = "FILE",
        description = "The authorities whose client certificates the web page accepts (PKCS#12, e.g. trust.p12); required with --https-keystore.")
    private Path truststore;

    @Option(names = "--https-password-env", paramLabel = "NAME",
        description = "Environment variable holding the HTTPS stores' password (default: ${DEFAULT-VALUE}).")
    private String passwordEnv = TlsStores.DEFAULT_PASSWORD_ENV;

    /**
     * @return the stores, or null when neither store was given (plain HTTP)
     * @throws IllegalArgumentException when only one store is given, a store is unreadable or the password unset
     */
    TlsStores stores() {
        return TlsStores.fromOptions("--https", keystore, truststore, passwordEnv);
    }
}
