package org.latencyserver.launch;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A component's ready file ({@code --ready-file PATH}): written once the component serves, so that
 * another program (the demo, the tests, a supervisor) waits for a typed contract instead of a log
 * line. Written atomically (a temporary file in the same directory, then a rename): a reader sees it
 * whole or not at all. A component deletes a stale file at start and its own file when it stops.
 *
 * <p>Layout ({@code format} {@value #FORMAT}; keys are never renamed within a format, readers ignore
 * keys they do not know):
 * <pre>
 * {
 *   "format": "latency-ready/1",
 *   "component": "server",                      // a {@link Component#command()}
 *   "pid": 4242,
 *   "references": { "server": "IOR:0000…" },    // CORBA references by role: IOR or corbaloc
 *   "ports": { "metrics": 39121 },              // TCP/UDP ports it listens on, by role
 *   "urls": { "metrics": "http://127.0.0.1:39121/metrics" },
 *   "files": { "ior": "/…/server.ior" },        // files it keeps, by role (absolute paths)
 *   "facts": { "connections": "6" }             // anything else a user of it needs, as text
 * }
 * </pre>
 *
 * <p>Immutable; thread-safe.
 *
 * @param format     {@value #FORMAT}
 * @param component  which component wrote it
 * @param pid        the writing process's id
 * @param references CORBA references by role
 * @param ports      ports by role
 * @param urls       URLs by role
 * @param files      files by role
 * @param facts      other facts by name
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReadyFile(
    @JsonProperty("format") String format,
    @JsonProperty("component") String component,
    @JsonProperty("pid") long pid,
    @JsonProperty("references") Map<String, String> references,
    @JsonProperty("ports") Map<String, Integer> ports,
    @JsonProperty("urls") Map<String, String> urls,
    @JsonProperty("files") Map<String, String> files,
    @JsonProperty("facts") Map<String, String> facts) {

    /** The layout's name and version. */
    public static final String FORMAT = "latency-ready/1";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final long POLL_MILLIS = 50;

    /** Copies the maps and stands in empty ones for missing sections. */
    public ReadyFile {
        references = copy(references);
        ports = copy(ports);
        urls = copy(urls);
        files = copy(files);
        facts = copy(facts);
    }

    /**
     * @param component the component that will write it
     * @return a builder for this process (its pid filled in)
     */
    public static Builder of(final Component component) {
        return new Builder(component.command());
    }

    /**
     * @param role a reference's role, e.g. {@code server}
     * @return the reference
     * @throws IllegalStateException naming the component and the roles it has, when it has none of that role
     */
    public String reference(final String role) {
        return required(references, "references", role);
    }

    /**
     * @param role a port's role, e.g. {@code metrics}
     * @return the port
     * @throws IllegalStateException when there is none of that role
     */
    public int port(final String role) {
        return required(ports, "ports", role);
    }

    /**
     * @param role a URL's role, e.g. {@code console}
     * @return the URL
     * @throws IllegalStateException when there is none of that role
     */
    public String url(final String role) {
        return required(urls, "urls", role);
    }

    /** @return the URL of a role, if it has one (e.g. a metrics endpoint that is switched off) */
    public Optional<String> optionalUrl(final String role) {
        return Optional.ofNullable(urls.get(role));
    }

    /**
     * @param role a file's role, e.g. {@code mirror}
     * @return the file
     * @throws IllegalStateException when there is none of that role
     */
    public Path file(final String role) {
        return Path.of(required(files, "files", role));
    }

    /**
     * @param name a fact's name
     * @return its text
     * @throws IllegalStateException when there is no such fact
     */
    public String fact(final String name) {
        return required(facts, "facts", name);
    }

    /**
     * Reads a ready file.
     *
     * @param file the file
     * @return its content
     * @throws IOException when it cannot be read, is not JSON of this layout, or is of another format
     */
    public static ReadyFile read(final Path file) throws IOException {
        return AtomicJsonFile.read(file, ReadyFile.class, JSON, "a ready file", ReadyFile::format, FORMAT);
    }

    /**
     * Waits for a ready file to appear.
     *
     * @param file          where the component writes it
     * @param timeout       how long to wait
     * @param stillStarting false once the component has exited (then waiting is pointless)
     * @param whenFailed    what to say about the component when it exits or the time passes (e.g. its log's end)
     * @return the file's content
     * @throws ReadinessException when the component exits first or the time passes
     * @throws InterruptedException when interrupted
     */
    public static ReadyFile await(final Path file, final Duration timeout, final BooleanSupplier stillStarting,
                                  final Supplier<String> whenFailed) throws InterruptedException {
        final long deadlineNanos = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return read(file);
            } catch (NoSuchFileException e) {
                // not yet
            } catch (IOException e) {
                throw new ReadinessException("its ready file is unusable: " + e.getMessage() + "\n" + whenFailed.get(), e);
            }
            if (!stillStarting.getAsBoolean()) {
                // One more look: it may have written the file and exited at once (a one-shot command).
                if (Files.exists(file)) {
                    continue;
                }
                throw new ReadinessException("it exited before it was ready (no " + file + ")\n" + whenFailed.get(), null);
            }
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new ReadinessException("it was not ready within " + timeout.toSeconds() + " s (no " + file + ")\n"
                    + whenFailed.get(), null);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /**
     * Writes this file atomically.
     *
     * @param file where
     * @throws IOException when it cannot be written
     */
    public void writeTo(final Path file) throws IOException {
        AtomicJsonFile.write(file, this, JSON);
    }

    /**
     * Deletes a ready file if it is there: at start (an earlier run's file would say "ready" before this
     * run is) and at stop. Never throws: a file that cannot be deleted is reported on standard error.
     *
     * @param file the file, or null when the component was given none
     */
    public static void deleteQuietly(final Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            System.err.println("cannot delete the ready file " + file + ": " + e.getMessage());
        }
    }

    private <T> T required(final Map<String, T> section, final String sectionName, final String role) {
        final T value = section.get(role);
        if (value == null) {
            throw new IllegalStateException("the ready file of " + component + " (pid " + pid + ") has no " + sectionName + "."
                + role + "; it has " + section.keySet());
        }
        return value;
    }

    private static <T> Map<String, T> copy(final Map<String, T> map) {
        return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    /** Builds a ready file; not thread-safe (one component's start-up thread uses it). */
    public static final class Builder {
        private final String component;
        private final Map<String, String> references = new LinkedHashMap<>();
        private final Map<String, Integer> ports = new LinkedHashMap<>();
        private final Map<String, String> urls = new LinkedHashMap<>();
        private final Map<String, String> files = new LinkedHashMap<>();
        private final Map<String, String> facts = new LinkedHashMap<>();

        private Builder(final String component) {
            this.component = component;
        }

        /** @return this, with a CORBA reference (IOR or corbaloc) of a role */
        public Builder reference(final String role, final String reference) {
            references.put(role, reference);
            return this;
        }

        /** @return this, with a port of a role */
        public Builder port(final String role, final int port) {
            ports.put(role, port);
            return this;
        }

        /** @return this, with a URL of a role */
        public Builder url(final String role, final String url) {
            urls.put(role, url);
            return this;
        }

        /** @return this, with a file of a role (made absolute) */
        public Builder file(final String role, final Path file) {
            files.put(role, file.toAbsolutePath().toString());
            return this;
        }

        /** @return this, with a fact */
        public Builder fact(final String name, final Object value) {
            facts.put(name, String.valueOf(value));
            return this;
        }

        /** @return the ready file */
        public ReadyFile build() {
            return new ReadyFile(FORMAT, component, ProcessHandle.current().pid(), references, ports, urls, files, facts);
        }

        /**
         * Builds the file and writes it atomically; does nothing when {@code file} is null (no
         * {@code --ready-file} given).
         *
         * @param file where, or null
         * @throws IOException when it cannot be written
         */
        public void writeTo(final Path file) throws IOException {
            if (file != null) {
                build().writeTo(file);
            }
        }
    }
}
