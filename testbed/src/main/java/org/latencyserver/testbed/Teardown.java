package org.latencyserver.testbed;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Removes a testbed by PID and by name, whatever state it was left in (a finished {@code up}, one
 * that failed half-way, one whose state directory is gone): every process its pid files name
 * (snmpd, iperf3) that is still that program; every process in a namespace of its prefix (the
 * product started with {@code exec}, a load); then the namespaces themselves, which takes their
 * interfaces, bridges and qdiscs with them; then the state directory. Afterwards it checks that no
 * namespace of the prefix is left.
 *
 * <p>Not thread-safe: one teardown of one testbed at a time.
 */
public final class Teardown {

    /** The programs a testbed's pid files may name. */
    private static final Set<String> OWN_PROGRAMS = Set.of("snmpd", "iperf3");

    private final TestbedNames names;
    private final StateDirectory state;
    private final CommandRunner runner;

    /**
     * @param names  the testbed's names
     * @param state  its state directory
     * @param runner runs {@code ip}
     */
    public Teardown(final TestbedNames names, final StateDirectory state, final CommandRunner runner) {
        this.names = names;
        this.state = state;
        this.runner = runner;
    }

    /**
     * What a teardown removed.
     *
     * @param processes  processes ended
     * @param namespaces namespaces deleted
     */
    public record Removed(int processes, List<String> namespaces) {
        /** @return whether there was anything to remove */
        public boolean any() {
            return processes > 0 || !namespaces.isEmpty();
        }
    }

    /**
     * @return what it removed
     * @throws CommandFailedException when a namespace cannot be listed or deleted, or survives
     * @throws IOException            when the state directory cannot be read or deleted
     * @throws InterruptedException   when interrupted
     */
    public Removed run() throws CommandFailedException, IOException, InterruptedException {
        final List<ProcessHandle> processes = new ArrayList<>();
        for (final Path pidFile : state.pidFiles()) {
            Processes.readPid(pidFile).flatMap(Processes::alive).filter(Teardown::isOwnProgram).ifPresent(processes::add);
        }
        final List<String> namespaces = namespaces();
        for (final String ns : namespaces) {
            final String pids = runner.run(Command.of("the processes in namespace " + ns, "ip", "netns", "pids", ns));
            pids.lines().map(String::strip).filter(l -> l.matches("\\d+")).map(Long::parseLong).map(Processes::alive)
                .flatMap(Optional::stream).filter(p -> !processes.contains(p)).forEach(processes::add);
        }
        final List<ProcessHandle> left = Processes.end(processes);
        if (!left.isEmpty()) {
            throw new IOException("processes of testbed " + names.testbed() + " survived SIGKILL: "
                + left.stream().map(p -> Long.toString(p.pid())).toList());
        }
        for (final String ns : namespaces) {
            runner.run(Command.of("removing namespace " + ns, "ip", "netns", "delete", ns));
        }
        final List<String> remaining = namespaces();
        if (!remaining.isEmpty()) {
            throw new IOException("namespaces of testbed " + names.testbed() + " remain after delete: " + remaining);
        }
        state.delete();
        return new Removed(processes.size(), namespaces);
    }

    /** @return the namespaces of this testbed that exist now */
    public List<String> namespaces() throws CommandFailedException, InterruptedException {
        final String listing = runner.run(Command.of("listing network namespaces", "ip", "netns", "list"));
        return listing.lines().map(l -> l.strip().split("\\s+")[0]).filter(n -> !n.isEmpty() && names.owns(n)).sorted().toList();
    }

    private static boolean isOwnProgram(final ProcessHandle process) {
        return process.info().command().map(c -> Path.of(c).getFileName().toString()).filter(OWN_PROGRAMS::contains).isPresent();
    }
}
