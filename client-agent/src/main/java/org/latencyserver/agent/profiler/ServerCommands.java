package org.latencyserver.agent.profiler;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.OperationDisabled;
import org.latencyserver.idl.latency.ProfileRejected;
import org.latencyserver.idl.latency.ProfileSummary;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.latencyserver.orb.ServerRoute;
import org.omg.CORBA.ORB;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@link ProfilerMain} subcommands that talk to a running server, {@code profile load} and {@code profile learned},
 * and the {@code --server} options and ORB they share ({@link RunningServer}).
 *
 * <p>Each command runs once, on the thread that parsed it.
 */
final class ServerCommands {

    private ServerCommands() {
    }

    /** {@code profile load FILE --server REF}: validate here, then swap it into the running server. */
    @Command(name = "load", mixinStandardHelpOptions = true,
        description = {"Validate a profile and load it into a running server, which swaps it in atomically.",
            "A bad file is refused with every fault; the server keeps the profile it had.",
            "Exit: 0 loaded, 1 refused or the server cannot be reached, 2 usage."})
    static final class Load implements Callable<Integer> {
        @Parameters(paramLabel = "FILE", description = "The profile JSON file.")
        Path file;

        @Mixin
        RunningServer runningServer;

        @Override
        public Integer call() throws Exception {
            try {
                ProfileJson.read(file);
            } catch (ProfileValidationException e) {
                e.faults().stream().map(InputFault::toString).forEach(System.err::println);
                System.err.println("REFUSED " + file + " (checked here; nothing was sent to the server)");
                return 1;
            }
            return runningServer.call("load", service -> {
                try {
                    final ProfileSummary summary = service.load_profile(Files.readString(file), file.getFileName().toString());
                    System.out.printf(java.util.Locale.ROOT, "LOADED %s: %s, %s %s, %d cells, histograms: %s, source: %s%n", file,
                        summary.name, summary.workstation_type, summary.layer, summary.cell_count,
                        summary.has_histograms ? "yes" : "no", summary.source);
                    return 0;
                } catch (ProfileRejected e) {
                    for (final String fault : e.faults) {
                        System.err.println(fault);
                    }
                    System.err.println("REFUSED by the server: " + e.reason);
                    return 1;
                } catch (OperationDisabled e) {
                    System.err.println("REFUSED: " + e.reason);
                    return 1;
                }
            });
        }
    }

    /** {@code profile learned PROFILE --server REF --out FILE}: what live probes taught the server about a profile. */
    @Command(name = "learned", mixinStandardHelpOptions = true,
        description = {"Write the profile a running server learned from live probes: its cells the probes of QoS 1/2",
            "connections reached (decayed online histograms), the profile's own elsewhere, with provenance.",
            "Compare it with 'profile diff', load it with 'profile load'. Also lists the cells drifting from the profile.",
            "Exit: 0 written, 1 nothing learned yet, refused or the server cannot be reached, 2 usage."})
    static final class Learned implements Callable<Integer> {
        @Parameters(paramLabel = "PROFILE", description = "The name of a profile loaded in the server.")
        String profileName;

        @Mixin
        RunningServer runningServer;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the learned profile (JSON).")
        Path out;

        @Override
        public Integer call() throws Exception {
            return runningServer.call("learned", service -> {
                try {
                    final String json = service.learned_profile(profileName);
                    // Checked here too: what is written must be a profile the planner's tools accept.
                    final org.latencyserver.core.profile.Profile learned = ProfileJson.parse(json, "learned profile from the server");
                    final Path target = out.toAbsolutePath();
                    final Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
                    Files.writeString(temporary, json);
                    Files.move(temporary, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                    System.out.printf(java.util.Locale.ROOT, "WROTE %s: profile %s, %d cells; %s%n", out, learned.name(),
                        learned.cells().size(), learned.provenance().method());
                    for (final org.latencyserver.idl.latency.ProfileCellDrift drift : service.profile_drift()) {
                        if (drift.profile_name.equals(profileName)) {
                            System.out.printf(java.util.Locale.ROOT, "  cell %d %d B: %d live round trips, mean %.4f ms (profile"
                                    + " %.4f ms), statistic %.4f vs %.4f: %s%n", drift.cpu_state, drift.message_size_bytes,
                                drift.live_round_trips, drift.live_mean_ms, drift.profile_mean_ms, drift.statistic,
                                drift.critical_value, drift.drifting ? "DRIFTING" : "consistent");
                        }
                    }
                    return 0;
                } catch (org.latencyserver.idl.latency.InvalidArgument e) {
                    System.err.println("latency profile learned: " + e.reason);
                    return 1;
                } catch (ProfileValidationException e) {
                    e.faults().stream().map(InputFault::toString).forEach(System.err::println);
                    System.err.println("latency profile learned: the server's learned profile does not validate; nothing written");
                    return 1;
                }
            });
        }
    }

    /** The running server a command talks to ({@code --server}, {@code --naming}), and a call to it with the ORB around it. */
    static final class RunningServer {
        @Option(names = "--server", required = true, paramLabel = "REF",
            description = "The server: its IOR file, an IOR/corbaloc, or its name with --naming.")
        String server;

        @Option(names = "--naming", paramLabel = "REF", description = "Naming service, e.g. corbaloc::127.0.0.1:2809/NameService.")
        String naming;

        @picocli.CommandLine.Mixin
        org.latencyserver.orb.TlsClientOptions tls = new org.latencyserver.orb.TlsClientOptions();

        /** What a command does with the server; returns its exit code. */
        @FunctionalInterface
        interface Call {
            int on(LatencyService service) throws Exception;
        }

        /** @return the call's exit code, or 1 when the server cannot be reached (said on stderr) */
        int call(final String command, final Call call) throws Exception {
            final org.latencyserver.orb.TlsStores stores;
            try {
                stores = tls.stores();
            } catch (IllegalArgumentException e) {
                System.err.println("latency profile " + command + ": " + e.getMessage());
                return 2;
            }
            final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 30_000));
            // Writes go over TLS when a certificate is given; the naming service is reached over plain IIOP.
            final ServerRoute route = ServerRoute.of(orb, stores, "127.0.0.1", 30_000);
            try {
                return call.on(LatencyServiceHelper.narrow(route.reach(References.resolve(orb, server, naming))));
            } catch (References.ReferenceException | org.omg.CORBA.SystemException e) {
                System.err.println("latency profile " + command + ": the server cannot be reached: " + e.getMessage());
                return 1;
            } finally {
                route.close();
                orb.shutdown(false);
            }
        }
    }
}
