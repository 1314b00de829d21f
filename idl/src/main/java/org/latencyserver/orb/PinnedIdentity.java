package org.latencyserver.orb;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;

/**
 * Who must answer a pinned reference: the role ({@code OU}) and the name ({@code CN}) of the certificate the
 * other end presents over IIOP/TLS, as {@code ./latency certs} issues them ({@code CN=NAME,OU=ROLE,O=...}): a peer
 * agent of node ws2 is {@code peer("ws2")}, the server {@code server(null)} (any server certificate of the CA).
 *
 * <p>Only the subject is checked here; that the certificate chains to a trusted authority is the TLS handshake's
 * job ({@link TlsPinning}). Immutable and thread-safe.
 *
 * @param role the subject's one {@code OU}, e.g. {@code peer}, {@code server}
 * @param name the subject's one {@code CN}, e.g. a node name; null for any name of that role
 */
public record PinnedIdentity(String role, String name) {

    /** The role ({@code OU}) of a peer agent's certificate. */
    public static final String PEER_ROLE = "peer";
    /** The role ({@code OU}) of the Latency Server's certificate. */
    public static final String SERVER_ROLE = "server";

    /**
     * @throws IllegalArgumentException when the role is blank or the name is given blank
     */
    public PinnedIdentity {
        if (role == null || role.isBlank()) {
            throw new IllegalArgumentException("a pinned identity needs a role (the certificate's OU)");
        }
        if (name != null && name.isBlank()) {
            throw new IllegalArgumentException("a pinned identity's name (the certificate's CN) is blank");
        }
    }

    /**
     * @param node the peer node, as the server's configuration names it
     * @return the identity of that node's peer agent: {@code CN=NODE,OU=peer}
     */
    public static PinnedIdentity peer(final String node) {
        return new PinnedIdentity(PEER_ROLE, Objects.requireNonNull(node, "node"));
    }

    /**
     * @param name the server certificate's name ({@code CN}), or null for any server certificate
     * @return the identity of the server: {@code OU=server}
     */
    public static PinnedIdentity server(final String name) {
        return new PinnedIdentity(SERVER_ROLE, name);
    }

    /**
     * @param certificate the certificate the other end presented (the first of its chain)
     * @return null when its subject is this identity's; otherwise why not, naming the subject and what was expected
     */
    public String mismatch(final X509Certificate certificate) {
        final X500Principal subject = certificate.getSubjectX500Principal();
        final List<String> commonNames = new ArrayList<>();
        final List<String> units = new ArrayList<>();
        try {
            for (final Rdn rdn : new LdapName(subject.getName(X500Principal.RFC2253)).getRdns()) {
                final String type = rdn.getType().toUpperCase(Locale.ROOT);
                if ("CN".equals(type)) {
                    commonNames.add(String.valueOf(rdn.getValue()));
                } else if ("OU".equals(type)) {
                    units.add(String.valueOf(rdn.getValue()));
                }
            }
        } catch (InvalidNameException e) {
            return "its certificate's subject '" + subject + "' cannot be read: " + e.getMessage();
        }
        final boolean roleMatches = units.size() == 1 && units.get(0).equals(role);
        final boolean nameMatches = commonNames.size() == 1 && (name == null || commonNames.get(0).equals(name));
        if (roleMatches && nameMatches) {
            return null;
        }
        return "it presented the certificate '" + subject.getName(X500Principal.RFC2253) + "', not " + describe();
    }

    /** @return e.g. {@code the peer certificate of ws2 (CN=ws2,OU=peer)} */
    public String describe() {
        return name == null
            ? "a " + role + " certificate (OU=" + role + ")"
            : "the " + role + " certificate of " + name + " (CN=" + name + ",OU=" + role + ")";
    }
}
