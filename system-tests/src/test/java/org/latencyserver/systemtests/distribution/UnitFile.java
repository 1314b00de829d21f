package org.latencyserver.systemtests.distribution;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A shipped systemd unit's command lines, expanded as systemd expands them, so that a test runs exactly what
 * the unit would: {@code %t} (runtime directory root), {@code %S} (state directory root) and {@code %N} (the
 * unit's name) specifiers; {@code ${VAR}} as one word, {@code $VAR} split on white space (an empty one
 * vanishes), from an environment-file's variables; then words split on white space (the shipped units quote
 * nothing).
 *
 * @param name  the unit's name without {@code .service}
 * @param lines the unit file's {@code Key=value} lines, in order
 */
public record UnitFile(String name, List<String> lines) {

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)\\}|\\$(\\w+)");

    /** @return the unit read from {@code file} */
    public static UnitFile read(final Path file) throws IOException {
        final String fileName = file.getFileName().toString();
        return new UnitFile(fileName.substring(0, fileName.length() - ".service".length()), Files.readAllLines(file));
    }

    /**
     * @param key e.g. {@code ExecStart}
     * @return the value of its first line
     * @throws IllegalStateException when the unit has none
     */
    public String value(final String key) {
        return lines.stream().filter(l -> l.startsWith(key + "=")).map(l -> l.substring(key.length() + 1)).findFirst()
            .orElseThrow(() -> new IllegalStateException(name + " has no " + key));
    }

    /**
     * @param key          {@code ExecStart} or {@code ExecStartPost}
     * @param runtimeRoot  what {@code %t} stands for
     * @param stateRoot    what {@code %S} stands for
     * @param environment  the environment file's variables
     * @return the command line systemd would run
     */
    public List<String> command(final String key, final Path runtimeRoot, final Path stateRoot, final Map<String, String> environment) {
        final String specified = value(key).replace("%t", runtimeRoot.toString()).replace("%S", stateRoot.toString())
            .replace("%N", name);
        final List<String> words = new ArrayList<>();
        for (final String word : specified.trim().split("\\s+")) {
            final Matcher m = VARIABLE.matcher(word);
            if (m.matches() && m.group(2) != null) {
                final String value = environment.getOrDefault(m.group(2), "").trim();
                if (!value.isEmpty()) {
                    words.addAll(List.of(value.split("\\s+")));
                }
                continue;
            }
            words.add(m.replaceAll(r -> Matcher.quoteReplacement(environment.getOrDefault(r.group(1), ""))));
        }
        return words;
    }

    /**
     * @param file a systemd environment file ({@code KEY=value} lines; {@code #} comments; blank lines)
     * @return its variables, in order
     */
    public static Map<String, String> environmentFile(final Path file) throws IOException {
        final Map<String, String> variables = new LinkedHashMap<>();
        for (final String line : Files.readAllLines(file)) {
            final String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            final int equals = trimmed.indexOf('=');
            variables.put(trimmed.substring(0, equals), trimmed.substring(equals + 1));
        }
        return variables;
    }
}
