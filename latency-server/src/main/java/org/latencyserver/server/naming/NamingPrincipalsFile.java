package org.latencyserver.server.naming;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.security.auth.x500.X500Principal;

/**
 * Reads the naming service's principals file ({@code ./latency naming-service --principals FILE}):
 * one writer a line, {@code server SUBJECT} or {@code peer NODE SUBJECT}, where SUBJECT is the
 * rest of the line (an X.500 name such as {@code CN=ws2,OU=peer,O=Latency Server}). Blank lines and
 * lines starting with {@code #} are skipped. {@code ./latency certs} writes one
 * ({@code naming-principals}) for the certificates it issues.
 *
 * <p>Stateless and thread-safe.
 */
public final class NamingPrincipalsFile {

    private NamingPrincipalsFile() {
    }

    /**
     * @param file the principals file
     * @return its principals, in file order
     * @throws IllegalArgumentException naming the file, line and what is wrong
     * @throws IOException              when it cannot be read
     */
    public static List<NamingPrincipal> read(final Path file) throws IOException {
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        final List<NamingPrincipal> principals = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            principals.add(parse(line, file + " line " + (i + 1)));
        }
        return principals;
    }

    /**
     * @param line  one non-blank, non-comment line
     * @param where where it is, for the error
     * @return its principal
     * @throws IllegalArgumentException {@code WHERE: WHAT IS WRONG}
     */
    static NamingPrincipal parse(final String line, final String where) {
        final String[] roleAndRest = line.split("\\s+", 2);
        final String role = roleAndRest[0];
        String rest = roleAndRest.length > 1 ? roleAndRest[1] : "";
        String node = null;
        final NamingPrincipal.Kind kind;
        if (role.equals(NamingPrincipal.Kind.SERVER.configName())) {
            kind = NamingPrincipal.Kind.SERVER;
        } else if (role.equals(NamingPrincipal.Kind.PEER.configName())) {
            kind = NamingPrincipal.Kind.PEER;
            final String[] nodeAndSubject = rest.split("\\s+", 2);
            node = nodeAndSubject[0];
            rest = nodeAndSubject.length > 1 ? nodeAndSubject[1] : "";
            if (node.isEmpty() || node.contains("=")) {
                throw new IllegalArgumentException(where + ": a peer line is 'peer NODE SUBJECT', the node is missing");
            }
        } else {
            throw new IllegalArgumentException(where + ": expected 'server SUBJECT' or 'peer NODE SUBJECT', the role was '"
                + role + "'");
        }
        if (rest.isBlank()) {
            throw new IllegalArgumentException(where + ": the certificate subject is missing (e.g. CN=ws2,OU=peer,O=Latency Server)");
        }
        final X500Principal subject;
        try {
            subject = new X500Principal(rest.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": '" + rest.strip() + "' is not an X.500 subject: " + e.getMessage(), e);
        }
        try {
            return new NamingPrincipal(subject, kind, node);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }
}
