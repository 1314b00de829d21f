package org.latencyserver.server.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.latencyserver.orb.RevokedSerials;

/**
 * A certificate authority for one installation, made with the JDK's {@code keytool}: a CA key,
 * a trust store with its certificate, and a PKCS#12 key store per party signed by it. A dedicated
 * CA matters: JacORB checks no host names, so every certificate the server trusts is a possible
 * caller, and only the subject decides the roles.
 *
 * <p>Files in the directory, every path absolute: {@code ca/ca.p12} (the CA's key, in a directory
 * of its own, mode 700: keep it off the hosts), {@code trust.p12} and {@code ca.pem} (the CA's
 * certificate, public), {@code <name>.p12} per party (mode 600), and {@code password} (mode 600),
 * which opens them all; it is written only when no password is given and none exists.
 *
 * <p>Not thread-safe: one maker per directory.
 */
public final class LocalCertificateAuthority {

    /** Organisation of every subject made here. */
    public static final String ORGANISATION = "Latency Server";
    private static final String CA_ALIAS = "ca";
    private static final int VALIDITY_DAYS = 825;

    private static final String OWNER_ONLY_FILE = "rw-------";
    private static final String OWNER_ONLY_DIRECTORY = "rwx------";

    private final Path directory;
    private final String password;
    private final Path passwordFile;
    private final Path keytool;

    private LocalCertificateAuthority(final Path directory, final String password, final Path passwordFile) {
        this.directory = directory;
        this.password = password;
        this.passwordFile = passwordFile;
        this.keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    }

    /**
     * Opens the CA in {@code directory}, making it (and the trust store and password file) when absent.
     *
     * @param directory where the stores live, relative to the working directory or absolute; created when missing
     * @param password  the stores' password, or null to use (or make) {@code directory/password}
     * @return the CA
     * @throws IOException when a file cannot be written or keytool fails
     */
    public static LocalCertificateAuthority open(final Path directory, final String password) throws IOException {
        final Path absolute = directory.toAbsolutePath().normalize();
        Files.createDirectories(absolute);
        final Path passwordFile = absolute.resolve("password");
        final LocalCertificateAuthority ca;
        if (password != null) {
            ca = new LocalCertificateAuthority(absolute, password, null);
        } else if (Files.exists(passwordFile)) {
            ca = new LocalCertificateAuthority(absolute, Files.readString(passwordFile, StandardCharsets.US_ASCII).strip(),
                passwordFile);
        } else {
            final byte[] random = new byte[18];
            new SecureRandom().nextBytes(random);
            final String chosen = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            Files.writeString(passwordFile, chosen + "\n", StandardCharsets.US_ASCII);
            ownerOnly(passwordFile, OWNER_ONLY_FILE);
            ca = new LocalCertificateAuthority(absolute, chosen, passwordFile);
        }
        Files.createDirectories(ca.privateDirectory());
        ownerOnly(ca.privateDirectory(), OWNER_ONLY_DIRECTORY);
        if (!Files.exists(ca.caStore())) {
            ca.keytool("-genkeypair", "-alias", CA_ALIAS, "-dname", "CN=" + ORGANISATION + " local CA,O=" + ORGANISATION,
                "-ext", "bc:c", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", Integer.toString(VALIDITY_DAYS),
                "-keystore", ca.caStore().toString(), "-storetype", "PKCS12");
            // The CA's certificate, public, as PEM and as a trust store: written here rather than by two
            // more keytool JVMs (what keytool -exportcert -rfc and -importcert write).
            final java.security.cert.Certificate caCertificate = ca.caCertificate();
            Files.writeString(directory.resolve("ca.pem"), pem(caCertificate), StandardCharsets.US_ASCII);
            final java.security.KeyStore trust = ca.load(null);
            ca.setTrusted(trust, caCertificate);
            ca.store(trust, ca.trustStore());
            ownerOnly(ca.caStore(), OWNER_ONLY_FILE);
        }
        return ca;
    }

    /** Makes {@code path} readable by its owner only; on a file system without POSIX permissions it keeps the default. */
    private static void ownerOnly(final Path path, final String permissions) throws IOException {
        try {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(permissions));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: the file keeps the directory's default permissions.
        }
    }

    /** What a certificate is for (its extended key usage). */
    public enum Usage {
        /** The server's: TLS server authentication only. */
        SERVER,
        /** An agent's, operator's, planner's or peer agent's: TLS client authentication only. */
        CLIENT,
        /**
         * The server's when it also binds its names in a naming service that checks who binds: TLS
         * server authentication for its callers, client authentication towards the naming service.
         */
        SERVER_AND_CLIENT
    }

    /** @return the stores' password */
    public String password() {
        return password;
    }

    /**
     * @return the file holding the stores' password, absolute: the one read or written by {@link #open};
     *         empty when the password was given (then no file was written)
     */
    public java.util.Optional<Path> passwordFile() {
        return java.util.Optional.ofNullable(passwordFile);
    }

    /** @return the directory of the stores, absolute */
    public Path directory() {
        return directory;
    }

    /** @return the trust store, absolute: the CA's certificate */
    public Path trustStore() {
        return directory.resolve("trust.p12");
    }

    /** The owner's only (mode 700): the CA's key store, and each party's key store while it is made. */
    private Path privateDirectory() {
        return directory.resolve("ca");
    }

    /** The CA's key store: in {@link #privateDirectory()}, or where an earlier version made it, beside the issued stores. */
    private Path caStore() {
        final Path earlier = directory.resolve("ca.p12");
        return Files.exists(earlier) ? earlier : privateDirectory().resolve("ca.p12");
    }

    /**
     * @param role a role, or "server"; becomes the subject's OU
     * @param name the party, e.g. a node name; becomes the subject's CN and the file name
     * @return the subject the certificate carries, e.g. {@code CN=ws1,OU=agent,O=Latency Server}
     */
    public static String subject(final String role, final String name) {
        return "CN=" + name + ",OU=" + role + ",O=" + ORGANISATION;
    }

    /**
     * Makes (or keeps, when it exists) a key store with a certificate signed by this CA.
     *
     * @param fileName the store's file name without {@code .p12}
     * @param subject  the certificate's subject
     * @param usage    what the certificate may prove: the server's identity, or a client's
     * @return the key store, absolute, readable by its owner only
     * @throws IOException when keytool fails
     */
    public Path issue(final String fileName, final String subject, final Usage usage) throws IOException {
        return issue(fileName, subject, usage, null);
    }

    /**
     * Makes (or keeps, when it exists) a key store with a certificate signed by this CA, for a host that clients reach by
     * name: the name goes into the certificate's subject alternative names, where browsers and the JDK's HTTPS clients
     * look for the host they asked for.
     *
     * @param fileName the store's file name without {@code .p12}
     * @param subject  the certificate's subject
     * @param usage    what the certificate may prove
     * @param hostName the host's DNS name or IP address literal (an alternative name of that kind); null for none
     * @return the key store, absolute, readable by its owner only
     * @throws IOException when keytool fails
     */
    public Path issue(final String fileName, final String subject, final Usage usage, final String hostName) throws IOException {
        if (!fileName.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("a certificate file name may hold letters, digits, '.', '_' and '-', was '"
                + fileName + "'");
        }
        final String alternativeName = hostName == null ? null : subjectAlternativeName(hostName);
        final Path store = directory.resolve(fileName + ".p12");
        if (Files.exists(store)) {
            return store;
        }
        // Made where only the owner reads, then made owner-only and moved beside the others. One keytool
        // JVM makes the key and its certificate signed by the CA (-signer), which must be in the same
        // store: the store starts as a copy of the CA's, whose entry is removed before the store leaves
        // the private directory. Its chain is the party's certificate, then the CA's.
        final Path temporary = privateDirectory().resolve(fileName + ".p12.tmp");
        Files.deleteIfExists(temporary);
        Files.copy(caStore(), temporary);
        ownerOnly(temporary, OWNER_ONLY_FILE);
        try {
            final List<String> generation = new ArrayList<>(List.of("-genkeypair", "-alias", fileName, "-dname", subject,
                "-keyalg", "EC", "-groupname", "secp256r1", "-validity", Integer.toString(VALIDITY_DAYS),
                "-keystore", temporary.toString(), "-storetype", "PKCS12", "-signer", CA_ALIAS, "-ext",
                // A client's certificate cannot serve as the server's; the server's is a client's only towards the naming service.
                switch (usage) {
                    case SERVER -> "eku=serverAuth";
                    case CLIENT -> "eku=clientAuth";
                    case SERVER_AND_CLIENT -> "eku=serverAuth,clientAuth";
                }));
            if (alternativeName != null) {
                generation.addAll(List.of("-ext", "san=" + alternativeName));
            }
            keytool(generation.toArray(String[]::new));
            final java.security.KeyStore made = load(temporary);
            try {
                made.deleteEntry(CA_ALIAS);
            } catch (java.security.KeyStoreException e) {
                throw new IOException("cannot take the CA's key out of " + temporary + ": " + e.getMessage(), e);
            }
            store(made, temporary);
            Files.move(temporary, store);
        } finally {
            Files.deleteIfExists(temporary);
        }
        return store;
    }

    /** @return keytool's alternative name for a host: {@code ip:} for an address literal, {@code dns:} for a name */
    private static String subjectAlternativeName(final String hostName) {
        if (hostName.matches("[0-9.]+") || hostName.indexOf(':') >= 0) {
            return "ip:" + hostName;
        }
        if (!hostName.matches("[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?")) {
            throw new IllegalArgumentException("a host name may hold letters, digits, '.' and '-', was '" + hostName + "'");
        }
        return "dns:" + hostName;
    }

    /** @return the list of revoked serials {@link #revoke} appends to, absolute (it may not exist yet) */
    public Path revokedSerials() {
        return directory.resolve("revoked-serials");
    }

    /**
     * Revokes a certificate issued here: appends its serial to {@link #revokedSerials()}, with a comment
     * naming the subject and the time. A serial listed already is not listed again.
     *
     * @param fileName the store's file name without {@code .p12}, as given to {@link #issue}
     * @return the serial revoked, in hexadecimal
     * @throws IOException              when the store or the list cannot be read or written
     * @throws IllegalArgumentException when no such store exists here
     */
    public String revoke(final String fileName) throws IOException {
        final Path store = directory.resolve(fileName + ".p12");
        if (!fileName.matches("[A-Za-z0-9._-]+") || !Files.isRegularFile(store)) {
            throw new IllegalArgumentException("no certificate '" + fileName + "' in " + directory + " (expected "
                + store + ")");
        }
        final java.security.cert.X509Certificate certificate;
        try (java.io.InputStream in = Files.newInputStream(store)) {
            final java.security.KeyStore keys = java.security.KeyStore.getInstance("JKS");
            keys.load(in, password.toCharArray());
            certificate = (java.security.cert.X509Certificate) keys.getCertificate(fileName);
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("cannot open " + store + ": " + e.getMessage(), e);
        }
        if (certificate == null) {
            throw new IllegalArgumentException(store + " holds no certificate named '" + fileName + "'");
        }
        final String serial = RevokedSerials.hex(certificate.getSerialNumber());
        final Path list = revokedSerials();
        if (Files.exists(list) && RevokedSerials.read(list).contains(certificate.getSerialNumber())) {
            return serial;
        }
        Files.writeString(list, serial + "  # " + certificate.getSubjectX500Principal().getName() + ", revoked "
                + java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + "\n", StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        return serial;
    }

    /** @return the certificate as {@code keytool -exportcert -rfc} writes it */
    private static String pem(final java.security.cert.Certificate certificate) throws IOException {
        try {
            return "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(certificate.getEncoded())
                + "\n-----END CERTIFICATE-----\n";
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IOException("cannot encode the CA's certificate: " + e.getMessage(), e);
        }
    }

    /** @return the PKCS#12 store at {@code path} opened with the stores' password, or a new empty one when null */
    private java.security.KeyStore load(final Path path) throws IOException {
        try {
            final java.security.KeyStore keys = java.security.KeyStore.getInstance("PKCS12");
            if (path == null) {
                keys.load(null, null);
            } else {
                try (java.io.InputStream in = Files.newInputStream(path)) {
                    keys.load(in, password.toCharArray());
                }
            }
            return keys;
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("cannot open " + path + ": " + e.getMessage(), e);
        }
    }

    private java.security.cert.Certificate caCertificate() throws IOException {
        try {
            return load(caStore()).getCertificate(CA_ALIAS);
        } catch (java.security.KeyStoreException e) {
            throw new IOException("cannot read the CA's certificate from " + caStore() + ": " + e.getMessage(), e);
        }
    }

    private void setTrusted(final java.security.KeyStore keys, final java.security.cert.Certificate certificate) throws IOException {
        try {
            keys.setCertificateEntry(CA_ALIAS, certificate);
        } catch (java.security.KeyStoreException e) {
            throw new IOException("cannot add the CA's certificate to a trust store: " + e.getMessage(), e);
        }
    }

    /** Writes the store with the stores' password, replacing the file. */
    private void store(final java.security.KeyStore keys, final Path path) throws IOException {
        try (java.io.OutputStream out = Files.newOutputStream(path)) {
            keys.store(out, password.toCharArray());
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    private void keytool(final String... arguments) throws IOException {
        // keytool is a JVM that lives well under a second: the client compiler and the serial collector
        // start it about a quarter sooner (0.41 s against 0.31 s a call, measured here).
        final List<String> command = new ArrayList<>(List.of(keytool.toString(), "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
        command.addAll(List.of(arguments));
        // Passwords through the environment, never on the command line (other users can read it).
        command.addAll(List.of("-storepass:env", "LATENCY_CA_PASSWORD"));
        if (arguments[0].equals("-genkeypair")) {
            command.addAll(List.of("-keypass:env", "LATENCY_CA_PASSWORD"));
            if (List.of(arguments).contains("-signer")) {
                command.addAll(List.of("-signerkeypass:env", "LATENCY_CA_PASSWORD"));
            }
        }
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("LATENCY_CA_PASSWORD", password);
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("keytool " + arguments[0] + " did not finish within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool ran", e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("keytool " + arguments[0] + " failed (exit " + process.exitValue() + "): " + output.strip());
        }
    }
}
