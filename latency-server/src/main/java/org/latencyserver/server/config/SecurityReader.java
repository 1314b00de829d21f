package org.latencyserver.server.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.security.auth.x500.X500Principal;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputMapping;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.server.security.PrincipalRule;
import org.latencyserver.server.security.Role;

/** Reads the {@code security:} section (see {@link SecuritySettings}); faults go to the collector. */
final class SecurityReader {

    private final InputFaults faults;
    private final Path directory;

    SecurityReader(final InputFaults faults, final Path directory) {
        this.faults = faults;
        this.directory = directory;
    }

    /**
     * @param section   the {@code security:} section, or null when absent
     * @param nodeNames the configured workstations (an agent's node must be one)
     * @return the settings, or null when faulty (reported)
     */
    SecuritySettings read(final InputMapping section, final Set<String> nodeNames) {
        if (section == null) {
            return SecuritySettings.LEGACY_OPEN;
        }
        final int before = faults.count();
        OptionReads.allowOnlyOptionsOf(section, "security");
        final SecuritySettings.Tls tls = tls(section.section("tls"));
        final String plainText = section.text("plain_iiop", tls == null ? "all" : "read-only");
        final SecuritySettings.PlainIiop plain = ConfigWord.byWord(SecuritySettings.PlainIiop.class).get(plainText);
        if (plain == null) {
            section.fault("plain_iiop", "expected read-only or all, was '" + plainText + "'");
        }
        final List<PrincipalRule> principals = principals(section, nodeNames);
        if (plain == SecuritySettings.PlainIiop.READ_ONLY && tls == null && !principals.isEmpty()) {
            section.fault("principals", "roles are granted over TLS only: add security.tls, or remove the principals");
        }
        if (faults.count() != before) {
            return null;
        }
        return new SecuritySettings(plain, tls, principals);
    }

    private SecuritySettings.Tls tls(final InputMapping tls) {
        if (tls == null) {
            return null;
        }
        OptionReads.allowOnlyOptionsOf(tls, "security.tls");
        final Long port = OptionReads.whole(tls, ServerOption.SECURITY_TLS_PORT);
        final Path keystore = store(tls, "keystore", "the server's certificate and key (PKCS#12), e.g. from ./latency certs");
        final Path truststore = store(tls, "truststore", "the certificate authorities of the clients (PKCS#12)");
        final String passwordEnv = OptionReads.text(tls, ServerOption.SECURITY_TLS_PASSWORD_ENV);
        final boolean revokedGiven = tls.text("revoked_serials_file", null) != null;
        final Path revoked = revokedGiven ? store(tls, "revoked_serials_file",
            "revoked client certificates, one hexadecimal serial per line") : null;
        if (port == null || keystore == null || truststore == null || revokedGiven && revoked == null) {
            return null;
        }
        return new SecuritySettings.Tls(port.intValue(), keystore, truststore, passwordEnv, revoked);
    }

    private Path store(final InputMapping tls, final String key, final String what) {
        final String text = tls.requiredText(key, what);
        if (text == null) {
            return null;
        }
        final Path path;
        try {
            path = directory.resolve(text).normalize();
        } catch (InvalidPathException e) {
            tls.fault(key, "not a valid path: '" + text + "' (" + e.getReason() + ")");
            return null;
        }
        if (!java.nio.file.Files.isRegularFile(path) || !java.nio.file.Files.isReadable(path)) {
            tls.fault(key, "no readable file " + path);
            return null;
        }
        return path;
    }

    private List<PrincipalRule> principals(final InputMapping section, final Set<String> nodeNames) {
        final List<PrincipalRule> rules = new ArrayList<>();
        final Map<String, String> seen = new HashMap<>();
        for (final InputMapping item : section.sections("principals")) {
            OptionReads.allowOnlyOptionsOf(item, "security.principals[]");
            final String subjectText = item.requiredText("subject", "the certificate subject, e.g. \"CN=ws1,OU=agent,O=Latency Server\"");
            X500Principal subject = null;
            if (subjectText != null) {
                try {
                    subject = new X500Principal(subjectText);
                } catch (IllegalArgumentException e) {
                    item.fault("subject", "not an X.500 name: '" + subjectText + "' (" + e.getMessage() + ")");
                }
            }
            final Set<Role> roles = EnumSet.noneOf(Role.class);
            if (item.require("roles", "a list of roles: agent, operator, planner")) {
                for (final InputNode node : item.list("roles")) {
                    final Role role = node.kind() == InputNode.Kind.SCALAR ? Role.fromConfigName(node.text()) : null;
                    if (role == null) {
                        faults.at(node, item.pathOf("roles"), "expected agent, operator or planner, was " + node.describe());
                    } else {
                        roles.add(role);
                    }
                }
            }
            final String node = item.text("node", null);
            if (roles.contains(Role.AGENT) && node == null) {
                item.fault("node", "missing: an agent's own workstation (the client node of the connections it may submit for)");
            } else if (node != null && !nodeNames.contains(node)) {
                item.fault("node", "no workstation '" + node + "' is configured; the nodes are " + String.join(", ", new java.util.TreeSet<>(nodeNames)));
            } else if (node != null && !roles.contains(Role.AGENT)) {
                item.fault("node", "only an agent has a node");
            }
            if (subject != null) {
                final String first = seen.putIfAbsent(subject.getName(X500Principal.CANONICAL), item.path());
                if (first != null) {
                    item.fault("subject", "the same subject as " + first);
                    continue;
                }
            }
            if (subject != null && !roles.isEmpty() && (node != null || !roles.contains(Role.AGENT))) {
                rules.add(new PrincipalRule(subject, roles, node));
            }
        }
        return rules;
    }
}
