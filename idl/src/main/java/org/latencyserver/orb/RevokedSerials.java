package org.latencyserver.orb;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The serial numbers of revoked certificates, read from a text file ({@code ./latency certs --revoke} writes it): one
 * hexadecimal serial per line (as {@code keytool -printcert} and {@code openssl x509 -serial} show it, with or
 * without a {@code 0x} prefix or colons), blank lines and {@code #} comments allowed, also after a serial. Only
 * certificates of the deployment's own CA are accepted at all, so a serial names one certificate. The server refuses
 * a revoked client at the handshake; a client agent that pins its peers refuses a revoked peer
 * ({@link RevokedSerialsWatch}).
 *
 * <p>Immutable and thread-safe.
 */
public final class RevokedSerials {

    /** The most characters of a bad line shown in a refusal. */
    private static final int MAX_SHOWN_CHARS = 200;

    /** No certificate revoked. */
    public static final RevokedSerials NONE = new RevokedSerials(Set.of());

    private final Set<BigInteger> serials;

    private RevokedSerials(final Set<BigInteger> serials) {
        this.serials = Set.copyOf(serials);
    }

    /**
     * @param file the list
     * @return the serials it holds
     * @throws IOException              when it cannot be read
     * @throws IllegalArgumentException {@code FILE line N: ...} for a line that is not a hexadecimal serial
     */
    public static RevokedSerials read(final Path file) throws IOException {
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        final Set<BigInteger> serials = new HashSet<>();
        for (int index = 0; index < lines.size(); index++) {
            final String line = lines.get(index);
            final int comment = line.indexOf('#');
            final String text = (comment < 0 ? line : line.substring(0, comment)).strip();
            if (text.isEmpty()) {
                continue;
            }
            serials.add(serialOf(text, file, index + 1));
        }
        return new RevokedSerials(serials);
    }

    private static BigInteger serialOf(final String text, final Path file, final int lineNumber) {
        String digits = text.replace(":", "").toLowerCase(Locale.ROOT);
        if (digits.startsWith("0x")) {
            digits = digits.substring(2);
        }
        if (digits.isEmpty() || digits.length() > 40 || !digits.matches("[0-9a-f]+")) {
            throw new IllegalArgumentException(file + " line " + lineNumber + ": expected a certificate's serial number in"
                + " hexadecimal (up to 40 digits, e.g. 5f3a9c01), was '" + shown(text) + "'");
        }
        return new BigInteger(digits, 16);
    }

    private static String shown(final String text) {
        if (text.length() <= MAX_SHOWN_CHARS) {
            return text;
        }
        final int end = Character.isHighSurrogate(text.charAt(MAX_SHOWN_CHARS - 1)) ? MAX_SHOWN_CHARS - 1 : MAX_SHOWN_CHARS;
        return text.substring(0, end) + "… (" + text.length() + " chars)";
    }

    /**
     * @param serial a certificate's serial number
     * @return whether it is revoked
     */
    public boolean contains(final BigInteger serial) {
        return serials.contains(serial);
    }

    /** @return how many serials are revoked */
    public int size() {
        return serials.size();
    }

    /**
     * @param serial a serial number
     * @return it as this list writes it: lower-case hexadecimal without a prefix
     */
    public static String hex(final BigInteger serial) {
        return serial.toString(16);
    }
}
