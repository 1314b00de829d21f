package org.latencyserver.agent.profiler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.latencyserver.agent.load.CorePinning;
import org.latencyserver.agent.load.CoreUtilisation;
import org.latencyserver.agent.load.LoadDriver;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.omg.CORBA.ORB;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./latency profile measure} and {@code ./latency profile load}: the planner's commands that
 * need round trips or the running server ({@code validate} and {@code diff} are the profiles
 * module's).
 */
@Command(name = "profile", mixinStandardHelpOptions = true, version = "latency profile 0.1.0",
    subcommands = {ProfilerMain.Measure.class, ServerCommands.Load.class, ServerCommands.Learned.class},
    description = "Measure a profile on this machine, or load one into a running server.")
public final class ProfilerMain implements Callable<Integer> {

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new ProfilerMain()).execute(args));
    }

    @Override
    public Integer call() {
        new CommandLine(this).usage(System.err);
        return 2;
    }

    /** {@code profile measure}: see {@link ProfileRun}. */
    @Command(name = "measure", mixinStandardHelpOptions = true,
        description = {"Measure a latency profile with histograms on this machine: for each CPU state pair, drive",
            "both sides' cores to the pair's load, check it, and measure every message size.",
            "The two workstations are emulated by pinning each side to its own core (needs taskset, stress-ng, 2 cores).",
            "With --peer REF --peer-state STATE: CPU cells against a peer agent already running on another host: this host's",
            "states are driven here, the peer host's is held in STATE by the planner (one run per state, with --resume).",
            "With --peer REF --port-loads LIST: port cells against a peer agent on another host, the port driven by iperf3",
            "and checked through its SNMP agent (CPU cells from --cpu-cells-from; see docs/planner-guide.md).",
            "Exit: 0 written, 1 cells refused (partial kept for --resume) or cannot run, 2 usage."})
    static final class Measure implements Callable<Integer> {
        /** A pinned JVM on a busy core can take a while to start. */
        private static final Duration PEER_READY_TIMEOUT = Duration.ofSeconds(60);

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "The profile to write.")
        Path out;

        @Option(names = "--name", description = "The profile's name (default: the file name without .json).")
        String name;

        @Option(names = "--workstation-type", description = "The workstation type it describes (default: ${DEFAULT-VALUE}).")
        String workstationType = "LOCAL-2CORE";

        @Option(names = "--sizes", split = ",", description = "Message sizes, bytes (default: the thesis's eight, 64..8192).")
        List<Integer> sizes = List.of(64, 128, 256, 512, 1024, 2048, 4096, 8192);

        @Option(names = "--pairs", split = ",", paramLabel = "PAIR",
            description = {"CPU state pairs, e.g. LOW/LOW,LOW/HIGH (default: all six; with --peer-state, the three",
                "holding that state)."})
        List<String> pairs = List.of();

        @Option(names = "--round-trips", description = "Round trips per cell (default: ${DEFAULT-VALUE}).")
        int roundTrips = 1000;

        @Option(names = "--warmup", description = "Discarded round trips before each cell (default: ${DEFAULT-VALUE}).")
        int warmup = 200;

        @Option(names = "--client-core", description = "Core of the client side, this process and its load driver (default: ${DEFAULT-VALUE}).")
        int clientCore;

        @Option(names = "--peer-core", description = "Core of the peer agent this command starts (default: ${DEFAULT-VALUE}; unused with --peer).")
        int peerCore = 1;

        @Option(names = "--resume", description = "Keep the cells an interrupted run measured (FILE.partial.json).")
        boolean resume;

        @Option(names = "--interval-micros", description = {"Start one round trip every this many us at most (default: ${DEFAULT-VALUE}):",
            "back-to-back round trips would keep both cores about half busy by themselves."})
        int intervalMicros = 2000;

        @Option(names = "--jit-warmup-seconds", description = {"Run unrecorded round trips back to back this long first (default:",
            "${DEFAULT-VALUE}): a fresh pair of JVMs reads up to 1.5 times slower for its first 10-15 s."})
        int jitWarmupSeconds = 15;

        @Option(names = "--peer", paramLabel = "REF", description = {"Measure against this peer agent on another host (its name with",
            "--naming, a corbaloc/IOR, or an IOR file) instead of starting one here: CPU cells with --peer-state,",
            "port cells with --port-loads. Load drivers run on this host alone."})
        String peer;

        @Option(names = "--peer-state", paramLabel = "STATE", description = {"With --peer: the CPU state LOW, MEDIUM or HIGH (0-33, 34-66,",
            "67-100 %%) the planner holds the peer host in; not driven or checked from here, recorded in the provenance.",
            "Measures this host's LOW, MEDIUM and HIGH against it (or those of --pairs holding STATE); the other",
            "pairs need runs with other states: LOW, then MEDIUM, then HIGH with --resume make the profile."})
        String peerState;

        @Option(names = "--naming", paramLabel = "REF", description = "Naming service to look --peer up in, e.g. corbaloc::HOST:2809/NameService.")
        String naming;

        @Option(names = "--cpu-cells-from", paramLabel = "FILE", description = {"With --peer --port-loads: the profile whose CPU state pair cells the",
            "written profile carries (measured where both sides could be driven); its port cells are replaced."})
        Path cpuCellsFrom;

        @Option(names = "--port-loads", paramLabel = "LIST", description = {"With --peer: port loads in percent, e.g. 0,50,80,90,95,98,100.",
            "Each load above 90 gives a port cell per size for the band from above the previous such load (or 91) up to it."})
        String portLoads;

        @Option(names = "--port-snmp", paramLabel = "udp:HOST/PORT", description = "The switch's SNMP agent (v2c) that counts the port.")
        String portSnmp;

        @Option(names = "--port-if-index", paramLabel = "N", description = "The port's IF-MIB ifIndex there.")
        Integer portIfIndex;

        @Option(names = "--port-speed-mbps", paramLabel = "MBPS", description = "The port's speed, Mbit/s (as the server's speed_mbps).")
        Double portSpeedMbps;

        @Option(names = "--port-load-target", paramLabel = "ADDR[:PORT]", description = {"An `iperf3 -s` behind the port (on the peer's side;",
            "port 5201 by default): this host sends it UDP to drive the port to each load above 0."})
        String portLoadTarget;

        @Option(names = "--port-traffic", paramLabel = "smooth|bursty[:PACKETS]", description = {"With --port-loads: the cross-traffic's",
            "shape: bursty sends PACKETS datagrams back to back (iperf3 -b RATE/PACKETS) so the port queues as under many senders;",
            "smooth is iperf3's paced -b RATE, under which a token bucket barely queues. Recorded in the provenance (default: ${DEFAULT-VALUE})."})
        String portTraffic = "bursty:" + PortTraffic.DEFAULT_BURST_PACKETS;

        @Option(names = "--peer-snmp", paramLabel = "udp:HOST/PORT", description = {"The peer host's SNMP agent (v2c): its CPU is checked to",
            "be LOW through UCD raw counters while port cells are measured (unchecked without it, said in the provenance)."})
        String peerSnmp;

        @Option(names = "--snmp-community-env", paramLabel = "VAR", description = "Environment variable holding the agents' v2c community (default: ${DEFAULT-VALUE}).")
        String snmpCommunityEnv = "LATENCY_SNMP_COMMUNITY";

        @Option(names = "--port-share-percent", description = "Most of the port's speed the round trips may take (default: ${DEFAULT-VALUE}).")
        double portSharePercent = 5;

        @Option(names = "--port-check-seconds", description = "Window of the port's utilisation check, s (default: ${DEFAULT-VALUE}; net-snmp refreshes counters every ~3 s).")
        int portCheckSeconds = 10;

        @Option(names = "--port-tolerance", description = "Points the port may read off its load (default: ${DEFAULT-VALUE}).")
        double portTolerance = 2;

        @Override
        public Integer call() throws Exception {
            final Path outDirectory = out.toAbsolutePath().getParent();
            if (!Files.isDirectory(outDirectory) || !Files.isWritable(outDirectory)) {
                // said before any round trip: otherwise the first pair's work would be lost
                System.err.println("latency profile measure: --out " + out + ": the directory " + outDirectory
                    + (Files.isDirectory(outDirectory) ? " is not writable" : " does not exist"));
                return 2;
            }
            if (peerState != null) {
                return measureAgainstRemotePeer();
            }
            if (peer != null || portLoads != null) {
                return measureAcrossPort(System::getenv);
            }
            final String problem = cannotRun();
            if (problem != null) {
                System.err.println("latency profile measure: " + problem);
                return 1;
            }
            final List<CpuStatePair> chosen;
            try {
                chosen = chosenPairs();
            } catch (IllegalArgumentException e) {
                System.err.println("latency profile measure: " + e.getMessage());
                return 2;
            }
            final ProfileSettings settings = new ProfileSettings(out.toAbsolutePath(), profileName(), workstationType,
                sizes.stream().sorted().toList(), chosen.isEmpty() ? ProfileRun.PAIRS : chosen, roundTrips, warmup, clientCore,
                peerCore, resume, intervalMicros, jitWarmupSeconds, null);
            // The client side is this process.
            CorePinning.pinThisProcess(clientCore);
            // The peer side: a peer agent pinned to its core, started as ./latency peer-agent would be, its log
            // and IOR file in a directory of the run's own that goes with the run, measured or failed.
            try (TemporaryDirectory run = TemporaryDirectory.create("profile-measure");
                 ProcessKit kit = ProcessKit.fromThisClasspath(run.path())) {
                final Path directory = run.path();
                final ChildProcess peer = kit.launch(Component.PEER_AGENT).name("profiled-peer").pinnedTo(peerCore)
                    // Its IOR file in the run's directory, not the caller's working directory.
                    .args("--name", "profiled-peer", "--ior-file", directory.resolve("profiled-peer.ior").toString()).start();
                final String peerReference = peer.awaitReady(PEER_READY_TIMEOUT).reference("peer");
                final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 30_000));
                try {
                    final EchoPeer echo = EchoPeerHelper.narrow(orb.string_to_object(peerReference));
                    return new ProfileRun(settings, echo, System.err).run();
                } finally {
                    orb.shutdown(false);
                }
            }
        }

        /** @return the --pairs, canonical; empty when none were given */
        private List<CpuStatePair> chosenPairs() {
            final List<CpuStatePair> chosen = new ArrayList<>();
            for (final String pair : pairs) {
                final String[] states = pair.toUpperCase(java.util.Locale.ROOT).split("/");
                try {
                    chosen.add(new CpuStatePair(CpuState.valueOf(states[0]), CpuState.valueOf(states[1])).canonical());
                } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
                    throw new IllegalArgumentException("--pairs: '" + pair + "' is not a pair like LOW/HIGH", e);
                }
            }
            return chosen;
        }

        /**
         * The pairs a {@code --peer REF --peer-state STATE} run measures, or why the options do not make one.
         *
         * @throws IllegalArgumentException the usage fault, naming the option and value
         */
        PeerStatePlan peerStatePlan() {
            if (peer == null) {
                throw new IllegalArgumentException("--peer-state needs --peer REF: it is the state of a peer agent's host that this"
                    + " profiler cannot drive; without --peer the profiler starts its own peer agent here and drives both sides");
            }
            if (portLoads != null || cpuCellsFrom != null) {
                throw new IllegalArgumentException("--peer-state measures CPU cells and cannot be combined with "
                    + (portLoads != null ? "--port-loads" : "--cpu-cells-from") + ": port cells are measured with both CPUs"
                    + " LOW, in a run of their own");
            }
            if (roundTrips < 1 || warmup < 0) {
                throw new IllegalArgumentException("--round-trips must be >= 1 and --warmup >= 0");
            }
            return PeerStatePlan.of(peerState, chosenPairs());
        }

        /**
         * CPU cells against a peer agent on another host: this host's states driven here, the peer host's asserted.
         *
         * @return 0 measured (and written once all six pairs are in), 1 cannot run, peer unreachable or cells refused, 2 usage
         */
        private int measureAgainstRemotePeer() throws Exception {
            final PeerStatePlan plan;
            try {
                plan = peerStatePlan();
            } catch (IllegalArgumentException e) {
                System.err.println("latency profile measure: " + e.getMessage());
                return 2;
            }
            final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 30_000));
            try {
                final EchoPeer echo;
                final RemotePeer remote;
                try {
                    echo = RemotePeerAgent.reach(orb, peer, naming);
                    remote = new RemotePeer(peer, RemotePeerAgent.host(echo), plan.peerState());
                } catch (IllegalStateException e) {
                    System.err.println("latency profile measure: " + e.getMessage());
                    return 1;
                }
                final String problem = cannotRunAgainstRemotePeer();
                if (problem != null) {
                    System.err.println("latency profile measure: " + problem);
                    return 1;
                }
                final ProfileSettings settings = new ProfileSettings(out.toAbsolutePath(), profileName(), workstationType,
                    sizes.stream().sorted().toList(), plan.pairs(), roundTrips, warmup, clientCore, peerCore, resume, intervalMicros,
                    jitWarmupSeconds, remote);
                final ProfileRun run = new ProfileRun(settings, echo, System.err);
                if (!run.prepare()) {
                    return 1;
                }
                // This host's side is this process, pinned as in a run that starts its own peer agent.
                CorePinning.pinThisProcess(clientCore);
                return run.run();
            } finally {
                orb.shutdown(false);
            }
        }

        /** @return why this host cannot drive its side, or null */
        private String cannotRunAgainstRemotePeer() throws IOException {
            if (!CorePinning.available()) {
                return "taskset is needed to pin this host's side to its core (Debian: util-linux)";
            }
            if (!LoadDriver.available()) {
                return "stress-ng is needed to drive this host's load (Debian: apt-get install stress-ng)";
            }
            final int cores = CoreUtilisation.read().coreCount();
            if (clientCore < 0 || clientCore >= cores) {
                return "--client-core must be one of the " + cores + " cores here (0.." + (cores - 1) + "), was " + clientCore;
            }
            return null;
        }

        /**
         * The port settings the options give, or why they do not make a run ({@link PortOptionChecks}).
         *
         * @param environment looks up the community's environment variable
         * @throws IllegalArgumentException the usage fault, naming the option
         */
        PortSettings portSettings(final java.util.function.Function<String, String> environment) {
            return PortOptionChecks.settings(this, environment);
        }

        /** The profile's name: --name, or the file name without .json. */
        String profileName() {
            return name != null ? name : out.getFileName().toString().replaceFirst("\\.json$", "");
        }

        private int measureAcrossPort(final java.util.function.Function<String, String> environment) throws Exception {
            final PortSettings settings;
            try {
                settings = portSettings(environment);
            } catch (IllegalArgumentException e) {
                System.err.println("latency profile measure: " + e.getMessage());
                return 2;
            }
            try {
                ProfileJson.read(settings.cpuCellsFrom());
            } catch (ProfileValidationException e) {
                e.faults().stream().map(InputFault::toString).forEach(System.err::println);
                System.err.println("latency profile measure: --cpu-cells-from " + settings.cpuCellsFrom() + " is not a valid profile");
                return 2;
            }
            if (settings.loadTarget() != null && !PortLoadDriver.available()) {
                System.err.println("latency profile measure: iperf3 is needed to drive the port (Debian: apt-get install iperf3)");
                return 1;
            }
            final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 30_000));
            try {
                final EchoPeer echo;
                try {
                    echo = EchoPeerHelper.narrow(References.resolve(orb, peer, naming));
                } catch (References.ReferenceException | org.omg.CORBA.SystemException e) {
                    System.err.println("latency profile measure: --peer " + peer + ": " + e.getMessage());
                    return 1;
                }
                return new PortRun(settings, echo, System.err).run();
            } finally {
                orb.shutdown(false);
            }
        }

        private String cannotRun() throws IOException {
            if (!CorePinning.available()) {
                return "taskset is needed to pin each side to its core (Debian: util-linux)";
            }
            if (!LoadDriver.available()) {
                return "stress-ng is needed to drive the load (Debian: apt-get install stress-ng)";
            }
            final int cores = CoreUtilisation.read().coreCount();
            if (clientCore == peerCore || clientCore < 0 || peerCore < 0 || clientCore >= cores || peerCore >= cores) {
                return "--client-core and --peer-core must be two different cores of the " + cores + " here";
            }
            return null;
        }
    }
}
