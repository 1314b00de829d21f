package org.latencyserver.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Starts components as child processes, as {@code ./latency COMMAND} would, and stops them all:
 * the one process kit of the demo, the system tests and the benchmark harnesses.
 *
 * <p>Each child gets its log ({@code WORK/NAME.log}) and, when its component writes one, a ready
 * file ({@code WORK/NAME.ready.json}, passed as {@code --ready-file}), so callers wait for
 * {@link ChildProcess#awaitReady}, never for a log line. {@link #close} stops the children in
 * reverse order of start, descendants included.
 *
 * <p>Where the classes come from: {@link #fromRepository} runs each component from its module's
 * {@code target/classes} and {@code target/lib} (what {@code ./latency} runs); {@link #fromDistribution}
 * runs it through an unpacked distribution's {@code bin/latency} (its JVM options passed in
 * {@code JAVA_OPTS});
 * {@link #fromThisClasspath} runs every component with the calling JVM's class path (a test module
 * that depends on all components). {@link #launchProgram} starts a program that is not Java (a load
 * driver, Prometheus) under the same log and stop rules.
 *
 * <p>Thread-safety: not thread-safe; one thread starts and stops.
 */
public final class ProcessKit implements AutoCloseable {

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    /** A module's list of the project's modules on its class path, when they are not in {@code target/lib}. */
    static final String MODULES_CLASSPATH = "modules.classpath";

    private final Path repository;
    private final Path distribution;
    private final Path workDirectory;
    private final List<String> jvmOptions;
    private final Deque<ChildProcess> running = new ArrayDeque<>();

    private ProcessKit(final Path repository, final Path distribution, final Path workDirectory, final List<String> jvmOptions) {
        this.repository = repository;
        this.distribution = distribution;
        this.workDirectory = workDirectory;
        this.jvmOptions = List.copyOf(jvmOptions);
    }

    /**
     * @param repository    the repository's root (each module's {@code target/} under it)
     * @param workDirectory logs and ready files
     * @return a kit running components from their modules' build output
     */
    public static ProcessKit fromRepository(final Path repository, final Path workDirectory) {
        return new ProcessKit(repository.toAbsolutePath(), null, workDirectory.toAbsolutePath(), List.of());
    }

    /**
     * @param home          an unpacked distribution's root (its {@code bin/latency})
     * @param workDirectory logs and ready files
     * @return a kit running each component as {@code HOME/bin/latency COMMAND}, with no build and no
     *     class path of this JVM's, in the work directory (not this process's working directory)
     */
    public static ProcessKit fromDistribution(final Path home, final Path workDirectory) {
        return new ProcessKit(null, home.toAbsolutePath(), workDirectory.toAbsolutePath(), List.of());
    }

    /**
     * @param workDirectory logs and ready files
     * @param jvmOptions    options for every child JVM, e.g. {@code -Dlogback.configurationFile=logback.xml}
     * @return a kit running every component with this JVM's class path
     */
    public static ProcessKit fromThisClasspath(final Path workDirectory, final String... jvmOptions) {
        return new ProcessKit(null, null, workDirectory.toAbsolutePath(), List.of(jvmOptions));
    }

    /** @return where logs and ready files go */
    public Path workDirectory() {
        return workDirectory;
    }

    /**
     * @param component what to start
     * @return a launch to complete and {@link Launch#start()}; its name defaults to the component's
     */
    public Launch launch(final Component component) {
        if (distribution != null) {
            return new Launch(component.command(),
                List.of(distribution.resolve("bin").resolve("latency").toString(), commandOf(component)),
                component.writesReadyFile(), true);
        }
        return new Launch(component.command(), component.mainClass(), classpathOf(component.module()),
            component.writesReadyFile());
    }

    /** The launcher's command for a component: {@code profile measure} and the like are the profiler's first argument. */
    private static String commandOf(final Component component) {
        return component == Component.PROFILER ? "profile" : component.command();
    }

    /**
     * For a main class that is not a component (a test's own client program run in its own JVM).
     *
     * @param name      its name (log file)
     * @param mainClass the class
     * @return a launch with this JVM's class path, writing no ready file
     */
    public Launch launchClass(final String name, final String mainClass) {
        return new Launch(name, mainClass, System.getProperty("java.class.path"), false);
    }

    /**
     * For a program that is not Java (a load driver, Prometheus): its children are stopped with the
     * kit's, descendants included, and its output goes to {@code WORK/NAME.log} like a component's.
     *
     * @param name    its name (log file)
     * @param command the program and its first arguments
     * @return a launch writing no ready file; {@link Launch#jvmOption} does not apply to it
     */
    public Launch launchProgram(final String name, final List<String> command) {
        return new Launch(name, List.copyOf(command), false, false);
    }

    /** @return the children still running, in start order */
    public List<ChildProcess> running() {
        final List<ChildProcess> children = new ArrayList<>(running);
        java.util.Collections.reverse(children);
        return children;
    }

    /**
     * Stops one child and forgets it.
     *
     * @param child a child of this kit
     * @return whether it and its descendants have ended
     * @throws InterruptedException when interrupted
     */
    public boolean stop(final ChildProcess child) throws InterruptedException {
        running.remove(child);
        return child.stop(STOP_GRACE);
    }

    /**
     * Stops every child, the last started first.
     *
     * @return whether each of them and their descendants have ended
     */
    public boolean stopAll() {
        boolean allEnded = true;
        while (!running.isEmpty()) {
            final ChildProcess child = running.pop();
            try {
                allEnded &= child.stop(STOP_GRACE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                allEnded = false;
            }
        }
        return allEnded;
    }

    /** Stops every child; see {@link #stopAll()}. */
    @Override
    public void close() {
        stopAll();
    }

    /** @return the class path a component of this module runs with */
    String classpathOf(final String module) {
        if (repository == null) {
            return System.getProperty("java.class.path");
        }
        final Path target = repository.resolve(module).resolve("target");
        final String classpath = target.resolve("classes") + java.io.File.pathSeparator + target.resolve("lib").resolve("*");
        // As ./latency does: a module run before it is packaged lists the project's modules it needs
        // in target/modules.classpath instead of copying them to target/lib.
        final Path modules = target.resolve(MODULES_CLASSPATH);
        if (!Files.isRegularFile(modules)) {
            return classpath;
        }
        try {
            return classpath + java.io.File.pathSeparator + Files.readString(modules).strip();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + modules, e);
        }
    }

    /** One process to start: a builder, used once. */
    public final class Launch {
        private String name;
        private final String mainClass;
        private final String classpath;
        private final boolean writesReadyFile;
        private final List<String> arguments = new ArrayList<>();
        private final List<String> extraJvmOptions = new ArrayList<>();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private final Set<String> withoutEnvironment = new HashSet<>();
        private Integer pinnedCore;
        private String networkNamespace;
        private boolean errorsApart;
        /** The program and its first arguments when it is not Java; null for a Java main class. */
        private final List<String> program;
        /** Whether the program is a launcher that takes the JVM's options in {@code JAVA_OPTS}. */
        private final boolean javaOptionsInEnvironment;

        private Launch(final String name, final String mainClass, final String classpath, final boolean writesReadyFile) {
            this.name = name;
            this.mainClass = mainClass;
            this.classpath = classpath;
            this.writesReadyFile = writesReadyFile;
            this.program = null;
            this.javaOptionsInEnvironment = false;
        }

        private Launch(final String name, final List<String> program, final boolean writesReadyFile,
                       final boolean javaOptionsInEnvironment) {
            this.name = name;
            this.mainClass = null;
            this.classpath = null;
            this.writesReadyFile = writesReadyFile;
            this.program = program;
            this.javaOptionsInEnvironment = javaOptionsInEnvironment;
        }

        /** @return this, named (its log is {@code NAME.log}; two children of one component need two names) */
        public Launch name(final String childName) {
            this.name = childName;
            return this;
        }

        /** @return this, with these command-line arguments appended */
        public Launch args(final String... values) {
            arguments.addAll(List.of(values));
            return this;
        }

        /** @return this, with these command-line arguments appended */
        public Launch args(final List<String> values) {
            arguments.addAll(values);
            return this;
        }

        /** @return this, with an environment variable (e.g. a TLS password, never on the command line) */
        public Launch env(final String key, final String value) {
            environment.put(key, value);
            return this;
        }

        /** @return this, with these environment variables */
        public Launch env(final Map<String, String> values) {
            environment.putAll(values);
            return this;
        }

        /**
         * @param key an environment variable this process has that the child must not inherit (e.g. a
         *            password the child would otherwise take instead of making its own)
         * @return this, without that variable (unless {@link #env} sets it again)
         */
        public Launch withoutEnv(final String key) {
            withoutEnvironment.add(key);
            return this;
        }

        /** @return this, with a JVM option such as {@code -Dname=value} */
        public Launch jvmOption(final String option) {
            extraJvmOptions.add(option);
            return this;
        }

        /**
         * @return this, its standard error in {@code WORK/NAME.err} and its standard output alone in
         *     {@code WORK/NAME.log} (for a program whose standard output a script reads, e.g.
         *     {@code console --once}); by default both go to the log
         */
        public Launch errorsApart() {
            this.errorsApart = true;
            return this;
        }

        /** @return this, run under {@code taskset -c CORE} */
        public Launch pinnedTo(final int core) {
            this.pinnedCore = core;
            return this;
        }

        /**
         * @param namespace a network namespace ({@code ip netns list}); starting it needs root
         * @return this, run under {@code ip netns exec NAMESPACE} (which execs it: the child's PID is its own)
         */
        public Launch inNetworkNamespace(final String namespace) {
            this.networkNamespace = namespace;
            return this;
        }

        /**
         * Starts it. A previous run's log and ready file of the same name are deleted first, so that
         * neither can be mistaken for this run's.
         *
         * @return the running child, remembered by the kit
         * @throws IOException when it cannot be started
         */
        public ChildProcess start() throws IOException {
            Files.createDirectories(workDirectory);
            final Path log = workDirectory.resolve(name + ".log");
            final Path readyFile = writesReadyFile ? workDirectory.resolve(name + ".ready.json") : null;
            final Path errors = errorsApart ? workDirectory.resolve(name + ".err") : null;
            Files.deleteIfExists(log);
            if (errors != null) {
                Files.deleteIfExists(errors);
            }
            ReadyFile.deleteQuietly(readyFile);
            final List<String> command = new ArrayList<>();
            if (networkNamespace != null) {
                command.addAll(List.of("ip", "netns", "exec", networkNamespace));
            }
            if (pinnedCore != null) {
                command.addAll(List.of("/usr/bin/taskset", "-c", Integer.toString(pinnedCore)));
            }
            if (program != null) {
                command.addAll(program);
            } else {
                command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
                command.addAll(jvmOptions);
                command.addAll(extraJvmOptions);
                command.addAll(List.of("-cp", classpath, mainClass));
            }
            command.addAll(arguments);
            if (readyFile != null) {
                command.addAll(List.of("--ready-file", readyFile.toString()));
            }
            final ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            if (distribution != null) {
                builder.directory(workDirectory.toFile());
            }
            if (errors == null) {
                builder.redirectErrorStream(true);
            } else {
                builder.redirectError(ProcessBuilder.Redirect.appendTo(errors.toFile()));
            }
            builder.environment().keySet().removeAll(withoutEnvironment);
            if (javaOptionsInEnvironment) {
                final List<String> javaOptions = new ArrayList<>(jvmOptions);
                javaOptions.addAll(extraJvmOptions);
                builder.environment().put("JAVA_OPTS", String.join(" ", javaOptions));
            }
            builder.environment().putAll(environment);
            final ChildProcess child = new ChildProcess(name, builder.start(), log, errors, readyFile);
            running.push(child);
            return child;
        }
    }
}
