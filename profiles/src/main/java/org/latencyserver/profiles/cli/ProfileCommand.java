package org.latencyserver.profiles.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileValidationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The planner's {@code profile} command of {@code ./latency}: a picocli top-level command whose
 * subcommands do the work ({@code validate}, {@code diff}; {@code measure} and {@code load}, which
 * need the measuring agent and CORBA, are {@code org.latencyserver.agent.profiler.ProfilerMain}). Run it with {@link ProfileMain}, or in-process with
 * {@code new CommandLine(new ProfileCommand()).execute(args)}.
 *
 * <p>Exit codes: 0 all files good, 1 a file has faults, 2 the command line was wrong.
 * One instance serves one command line; not thread-safe.
 */
@Command(name = "profile", mixinStandardHelpOptions = true, version = "latency profile 0.1.0",
    description = "Check and manage a priori latency profiles.",
    subcommands = {ProfileCommand.Validate.class, ProfileDiff.class},
    footer = {"", "Also, through ./latency profile (run by the profiler, which measures and talks to a server):",
        "  measure   Measure a profile on this machine: load drivers, every CPU state pair and size.",
        "  load      Validate a profile and swap it into a running server.",
        "  learned   Write what live probes taught a running server about a profile.",
        "Each takes --help, e.g. ./latency profile measure --help."})
public final class ProfileCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    /**
     * Without a subcommand there is nothing to do: print the usage to standard error.
     *
     * @return 2, the usage-error exit code
     */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** {@code profile validate FILE...}: one summary line per good file, or every fault. */
    @Command(name = "validate", mixinStandardHelpOptions = true, version = "latency profile validate 0.1.0",
        description = {"Check profile files and report every fault.",
            "A good file: one summary line on standard output.",
            "A bad or unreadable file: every fault on standard error, one per line,",
            "as 'file: location: reason'.",
            "Exit code: 0 when every file is good, 1 otherwise, 2 for a usage error."})
    static final class Validate implements Callable<Integer> {

        @Spec
        private CommandSpec spec;

        @Parameters(arity = "1..*", paramLabel = "FILE", description = "Profile JSON files.")
        private List<Path> files;

        @Override
        public Integer call() {
            final PrintWriter out = spec.commandLine().getOut();
            final PrintWriter err = spec.commandLine().getErr();
            int exitCode = 0;
            for (final Path file : files) {
                try {
                    out.println("OK " + file + ": " + summary(ProfileJson.read(file)));
                } catch (ProfileValidationException e) {
                    exitCode = 1;
                    for (final InputFault fault : e.faults()) {
                        err.println(fault);
                    }
                    err.println("REFUSED " + file + ": " + e.faults().size() + (e.faults().size() == 1 ? " fault" : " faults"));
                }
            }
            out.flush();
            err.flush();
            return exitCode;
        }
    }

    /**
     * @param profile a valid profile (so every size has all six CPU pairs)
     * @return e.g. {@code thesis-tac4-corba, TAC-4 CORBA, 48 cells (6 CPU pairs x 8 sizes),
     *         histograms: none (QoS 2 unavailable), source: thesis Appendix A}
     */
    static String summary(final Profile profile) {
        final int sizes = profile.messageSizesBytes().size();
        final long withHistograms = profile.cells().stream().filter(ProfileCell::hasHistogram).count();
        final String histograms = withHistograms == 0 ? "histograms: none (QoS 2 unavailable)"
            : withHistograms == profile.cells().size() ? "histograms: all cells"
            : String.format(Locale.ROOT, "histograms: %d of %d cells (QoS 2 only where present)", withHistograms,
                profile.cells().size());
        return String.format(Locale.ROOT, "%s, %s %s, %d cells (%d CPU pairs x %d sizes), %s, source: %s",
            profile.name(), profile.workstationType(), profile.layer(), profile.cells().size(),
            profile.cells().size() / sizes, sizes, histograms, profile.provenance().source());
    }

    /** @return a command line with this command, for {@code main} and tests */
    public static CommandLine commandLine() {
        return new CommandLine(new ProfileCommand());
    }
}
