package org.latencyserver.agent.profiler;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.latencyserver.agent.load.CoreUtilisation;
import org.latencyserver.agent.measure.RoundTripRunner;
import org.latencyserver.agent.measure.RunResult;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.PortCell;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.Provenance;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStateClassifier;
import org.latencyserver.idl.latency.EchoPeer;
import org.snmp4j.CommunityTarget;
import org.snmp4j.smi.Address;

/**
 * One {@code profile measure --peer REF --port-loads ...} run: round trips to a peer agent on another
 * host, across the switch port between them, with the port driven to each load in turn.
 *
 * <p>For each load: {@code iperf3} drives the port ({@link PortLoadDriver}; none for 0 %); for
 * {@link PortSettings#checkSeconds()} paced round trips run while the port's counters are read
 * through its SNMP agent ({@link PortMeter}, the server's arithmetic in {@link PortCounterWindow});
 * a port that misses the load by more than the tolerance has its iperf3 rate corrected by the miss
 * and is tried again, up to {@value #ATTEMPTS} times. Then every message size is measured, and the
 * utilisation is checked again over the measuring time (extended with paced round trips to a full
 * window). Both CPUs must read LOW over the load's whole time — this host's from {@code /proc/stat}
 * (all its cores, as its snmpd reports it), the peer's through its SNMP agent's UCD raw counters when
 * {@code --peer-snmp} names it. A load that misses on either check after its tries is <b>refused</b>:
 * the reason is printed, and no profile is written.
 *
 * <p>Loads above 90 % give one port cell per size, for the band {@link PortLoads#bandOf} says. Loads
 * at or below 90 are measured and printed (and named in the provenance), not written as cells.
 * Round trips start no closer than {@link PortPacing#intervalMicros} so that they take at most
 * {@link PortSettings#sharePercent()} of the port themselves.
 *
 * <p>Runs on one thread (the meter polls on its own); not thread-safe.
 */
final class PortRun {

    static final int ATTEMPTS = 3;
    /** iperf3 starting and the tbf's queue filling, and one counter refresh, before a window begins. */
    private static final long SETTLE_MILLIS = 3_000;

    /** One (load, size) measured. */
    record Result(int loadPercent, PortLoads.Band band, int messageSizeBytes, RunResult run, double portBeforePercent,
                  double portAfterPercent, double hostCpuPercent, double peerCpuPercent, long intervalMicros,
                  double askedPercent) {
        double p96Millis() {
            return run.histogramNanos().getValueAtPercentile(96) / 1e6;
        }
    }

    private final PortSettings settings;
    private final EchoPeer peer;
    private final PrintStream progress;
    private final CpuStateClassifier classifier = CpuStateClassifier.withDefaults();
    private final List<Result> results = new ArrayList<>();
    private final List<String> refused = new ArrayList<>();
    /** What the round trips alone read on the port (the load-0 window), or NaN before it was measured. */
    private double roundTripsPercent = Double.NaN;

    PortRun(final PortSettings settings, final EchoPeer peer, final PrintStream progress) {
        this.settings = settings;
        this.peer = peer;
        this.progress = progress;
    }

    /** @return 0 written; 1 a load was refused (nothing written) */
    int run() throws Exception {
        final Profile base = ProfileJson.read(settings.cpuCellsFrom());
        final long startNanos = System.nanoTime();
        final Path iperfLog = Files.createTempFile("profile-port-load", ".log");
        try (SnmpReader snmp = new SnmpReader();
             PortLoadDriver driver = new PortLoadDriver(settings.loadTarget() == null ? "0.0.0.0" : settings.loadTarget(),
                 settings.portSpeedMbps(), iperfLog, settings.traffic())) {
            final PortMeter meter = new PortMeter(snmp, SnmpReader.agent("--port-snmp", settings.portAgent(), settings.community()),
                settings.portIfIndex());
            meter.start();
            try {
                final CommunityTarget<Address> peerCpu = settings.peerAgent() == null ? null
                    : SnmpReader.agent("--peer-snmp", settings.peerAgent(), settings.community());
                if (peerCpu != null) {
                    snmp.cpuTicks(peerCpu); // a wrong address or community is said now, not after the first load
                }
                final int smallest = settings.sizesBytes().get(0);
                progress.printf(Locale.ROOT, "warming up: paced round trips (%d B every %d us) for %d s%n", smallest,
                    interval(smallest), settings.jitWarmupSeconds());
                new RoundTripRunner(peer, smallest).warmUntil(100, System.nanoTime() + settings.jitWarmupSeconds() * 1_000_000_000L,
                    interval(smallest) * 1_000L);
                for (final int load : settings.loads().percents()) {
                    measureLoad(load, driver, meter, snmp, peerCpu);
                }
            } finally {
                meter.close();
            }
        } finally {
            Files.deleteIfExists(iperfLog);
        }
        progress.println();
        printTable();
        if (!refused.isEmpty()) {
            progress.println("REFUSED: these port loads could not be measured as asked, so no profile was written:");
            refused.forEach(line -> progress.println("  " + line));
            return 1;
        }
        final Profile profile = profile(base);
        ProfileJson.write(profile, settings.out());
        progress.printf(Locale.ROOT, "wrote %s: %d CPU cells from %s, %d port cells measured in %.0f s%n", settings.out(),
            profile.cells().size(), settings.cpuCellsFrom().getFileName(), profile.portCells().size(),
            (System.nanoTime() - startNanos) / 1e9);
        return 0;
    }

    private long interval(final int size) {
        return PortPacing.intervalMicros(size, settings.portSpeedMbps(), settings.sharePercent(), settings.minIntervalMicros());
    }

    private void measureLoad(final int load, final PortLoadDriver driver, final PortMeter meter, final SnmpReader snmp,
                             final CommunityTarget<Address> peerCpu) throws Exception {
        final PortLoads.Band band = load >= PortLoads.FIRST_LOADED_PERCENT ? settings.loads().bandOf(load) : null;
        final int smallest = settings.sizesBytes().get(0);
        final RoundTripRunner filler = new RoundTripRunner(peer, smallest);
        double asked = firstAskedPercent(load, smallest);
        String lastMiss = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            driver.drive(asked);
            Thread.sleep(SETTLE_MILLIS);
            final CoreUtilisation hostStart = CoreUtilisation.read();
            final long[] peerStart = peerCpu == null ? null : snmp.cpuTicks(peerCpu);
            final long beforeFrom = System.nanoTime();
            runFor(filler, smallest, beforeFrom + settings.checkSeconds() * 1_000_000_000L);
            final double before = PortCounterWindow.percent(meter.changes(), beforeFrom, System.nanoTime(), settings.portSpeedMbps());
            final Optional<LoadMiss> beforeMiss = portMiss(load, before, meter);
            if (beforeMiss.isPresent()) {
                lastMiss = beforeMiss.get().detail();
                progress.printf(Locale.ROOT, "port %d %%: %s; %s%n", load, lastMiss, attempt < ATTEMPTS ? "correcting the load"
                    + " and trying again" : "giving up");
                asked = corrected(asked, load, before);
                continue;
            }
            final long measureFrom = System.nanoTime();
            final List<RunResult> runs = measureSizes(load, before);
            // a full window of counter refreshes over the measuring time
            runFor(filler, smallest, measureFrom + settings.checkSeconds() * 1_000_000_000L);
            final double after = PortCounterWindow.percent(meter.changes(), measureFrom, System.nanoTime(), settings.portSpeedMbps());
            final double hostCpu = hostPercent(hostStart, CoreUtilisation.read());
            final double peerCpuPercent = peerStart == null ? Double.NaN : peerPercent(peerStart, snmp.cpuTicks(peerCpu));
            final Optional<LoadMiss> afterMiss = portMiss(load, after, meter);
            final Optional<LoadMiss> cpuMiss = cpuMiss(hostCpu, peerCpuPercent);
            if (afterMiss.isEmpty() && cpuMiss.isEmpty()) {
                if (load == 0) {
                    roundTripsPercent = after;
                }
                for (int i = 0; i < runs.size(); i++) {
                    final int size = settings.sizesBytes().get(i);
                    results.add(new Result(load, band, size, runs.get(i), before, after, hostCpu, peerCpuPercent, interval(size), asked));
                }
                return;
            }
            lastMiss = afterMiss.isPresent() ? "while its sizes were measured " + afterMiss.get().detail() : cpuMiss.orElseThrow().detail();
            progress.printf(Locale.ROOT, "port %d %%: %s; %s (not recorded: %s)%n", load, lastMiss, attempt < ATTEMPTS
                ? "measuring it again" : "giving up", summary(runs, after));
            if (afterMiss.isPresent()) {
                asked = corrected(asked, load, after);
            }
        }
        driver.stop();
        refused.add(String.format(Locale.ROOT, "port %d %%%s (every size): %s, %d times", load,
            band == null ? "" : " (band " + band.label() + ")", lastMiss, ATTEMPTS));
    }

    /**
     * The load to ask iperf3 for first: the round trips are part of the port's load, and iperf3 adds
     * the rest (their share as measured at 0 %, or as paced when 0 % was not measured).
     */
    private double firstAskedPercent(final int load, final int smallestBytes) {
        return load == 0 ? 0 : Math.max(1, load - (Double.isNaN(roundTripsPercent)
            ? PortPacing.sharePercent(smallestBytes, settings.portSpeedMbps(), interval(smallestBytes)) : roundTripsPercent));
    }

    /** One paced run of every size, in the settings' order, while the port is at {@code load}. */
    private List<RunResult> measureSizes(final int load, final double beforePercent) throws Exception {
        final List<RunResult> runs = new ArrayList<>();
        for (final int size : settings.sizesBytes()) {
            progress.printf(Locale.ROOT, "port %d %% (read %.1f %%): %d round trips of %d B, one every %d us at most%n", load,
                beforePercent, settings.roundTrips(), size, interval(size));
            runs.add(new RoundTripRunner(peer, size).runPaced(settings.warmupRoundTrips(), settings.roundTrips(),
                interval(size) * 1_000L));
        }
        return runs;
    }

    /** @return e.g. {@code "1024 B mean 13.1 ms p96 15.4 ms, port 95.0 %"}: what a refused try measured, for the planner to see */
    private String summary(final List<RunResult> runs, final double portPercent) {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < runs.size(); i++) {
            text.append(String.format(Locale.ROOT, "%d B mean %.3f ms p96 %.3f ms, ", settings.sizesBytes().get(i),
                runs.get(i).meanMillis(), runs.get(i).histogramNanos().getValueAtPercentile(96) / 1e6));
        }
        return text.append(String.format(Locale.ROOT, "port %.1f %%", portPercent)).toString();
    }

    /** Paced round trips of one size, unrecorded, until {@code endNanos}: the port carries what it carries while measuring. */
    private void runFor(final RoundTripRunner filler, final int size, final long endNanos) throws Exception {
        filler.warmUntil(1, endNanos, interval(size) * 1_000L);
    }

    private Optional<LoadMiss> portMiss(final int load, final double achieved, final PortMeter meter) {
        final String fault = meter.lastFault();
        if (Double.isNaN(achieved) && fault != null) {
            return Optional.of(new LoadMiss(LoadMiss.Kind.PORT_UNREAD, "the port's agent could not be read: " + fault));
        }
        return portMiss(load, achieved, settings.sharePercent(), settings.tolerancePoints());
    }

    /**
     * @return empty when the port read the load: within the tolerance of it, or for a load of 0 (no
     *         iperf3) at most the round trips' own share plus the tolerance; else why not
     */
    static Optional<LoadMiss> portMiss(final int load, final double achieved, final double sharePercent, final double tolerancePoints) {
        if (load == 0 && !Double.isNaN(achieved)) {
            return achieved <= sharePercent + tolerancePoints ? Optional.empty() : Optional.of(new LoadMiss(
                LoadMiss.Kind.PORT_BUSY_UNLOADED, String.format(Locale.ROOT, "the port read %.1f %% with no load driven (more than"
                    + " the round trips' %.0f %% share plus %.0f points: other traffic on the port?)", achieved, sharePercent,
                    tolerancePoints)));
        }
        return PortCounterWindow.miss(achieved, load, tolerancePoints);
    }

    /** The next rate to ask, by the miss (iperf3's rate and the port's reading move point for point). */
    static double corrected(final double asked, final int load, final double achieved) {
        if (load == 0 || Double.isNaN(achieved)) {
            return asked;
        }
        return Math.max(1, Math.min(110, asked + (load - achieved)));
    }

    /** @return empty when both hosts' CPUs read LOW (or could not be read), else what they read */
    private Optional<LoadMiss> cpuMiss(final double hostPercent, final double peerPercent) {
        final StringBuilder miss = new StringBuilder();
        if (!Double.isNaN(hostPercent) && classifier.classifyPlain(hostPercent) != CpuState.LOW) {
            miss.append(String.format(Locale.ROOT, "this host's CPU read %.0f %% (%s)", hostPercent,
                classifier.classifyPlain(hostPercent)));
        }
        if (!Double.isNaN(peerPercent) && classifier.classifyPlain(peerPercent) != CpuState.LOW) {
            miss.append(miss.isEmpty() ? "" : " and ").append(String.format(Locale.ROOT, "the peer host's CPU read %.0f %% (%s)",
                peerPercent, classifier.classifyPlain(peerPercent)));
        }
        return miss.isEmpty() ? Optional.empty()
            : Optional.of(new LoadMiss(LoadMiss.Kind.CPU_NOT_IDLE, miss + ", not LOW: port cells are measured with both CPUs idle"));
    }

    /** @return the whole host's utilisation between the readings: the mean of its cores, as its snmpd's UCD counters read */
    static double hostPercent(final CoreUtilisation start, final CoreUtilisation end) {
        double sum = 0;
        int counted = 0;
        for (int core = 0; core < end.coreCount(); core++) {
            final double percent = end.percentSince(start, core);
            if (!Double.isNaN(percent)) {
                sum += percent;
                counted++;
            }
        }
        return counted == 0 ? Double.NaN : sum / counted;
    }

    /** @return busy share of the UCD raw ticks between two readings, or NaN when the agent did not refresh them between */
    static double peerPercent(final long[] start, final long[] end) {
        final long total = end[1] - start[1];
        return total <= 0 ? Double.NaN : 100.0 * (end[0] - start[0]) / total;
    }

    private void printTable() {
        if (results.isEmpty()) {
            return;
        }
        progress.println("port load  band        size B      n   mean ms    p96 ms    max ms  port read before/after  CPU host/peer");
        for (final Result r : results) {
            progress.printf(Locale.ROOT, "%7d %%  %-10s %7d %6d %9.3f %9.3f %9.3f  %9.1f / %5.1f %%      %3.0f / %s%n",
                r.loadPercent(), r.band() == null ? "(NORMAL)" : r.band().label(), r.messageSizeBytes(), r.run().recordedRoundTrips(),
                r.run().meanMillis(), r.p96Millis(), r.run().maxMillis(), r.portBeforePercent(), r.portAfterPercent(),
                r.hostCpuPercent(), Double.isNaN(r.peerCpuPercent()) ? "not read" : String.format(Locale.ROOT, "%.0f %%",
                    r.peerCpuPercent()));
        }
    }

    private Profile profile(final Profile base) {
        final List<PortCell> cells = new ArrayList<>();
        final StringBuilder loads = new StringBuilder();
        for (final Result r : results) {
            if (r.band() != null) {
                final LatencyHistogram histogram = LatencyHistogram.fromHdr(r.run().histogramNanos());
                cells.add(new PortCell(r.band().lowestPercent(), r.band().highestPercent(), r.messageSizeBytes(),
                    r.run().recordedRoundTrips(), r.run().meanMillis(), r.run().stdDevMillis(),
                    Math.max(r.run().maxMillis(), r.run().meanMillis()), histogram));
            }
            loads.append(String.format(Locale.ROOT, "%d %%%s %d B: mean %.3f ms, p96 %.3f ms, port read %.1f/%.1f %% (iperf3 asked"
                    + " %.1f %%), CPU this host %.0f %%, peer %s, one round trip every %d us; ", r.loadPercent(),
                r.band() == null ? "" : " (band " + r.band().label() + ")", r.messageSizeBytes(), r.run().meanMillis(), r.p96Millis(),
                r.portBeforePercent(), r.portAfterPercent(), r.askedPercent(), r.hostCpuPercent(),
                Double.isNaN(r.peerCpuPercent()) ? "not read" : String.format(Locale.ROOT, "%.0f %%", r.peerCpuPercent()),
                r.intervalMicros()));
        }
        final String method = String.format(Locale.ROOT,
            "latency profile measure --peer: CPU state pair cells taken unchanged from %s (%s); port cells measured here: CORBA round"
                + " trips from this host to the peer agent %s across the switch port ifIndex %d of the SNMP agent %s (%.0f Mbit/s),"
                + " %d per (load, size) after %d discarded, both CPUs idle (LOW; this host from /proc/stat over all cores, the peer"
                + " %s). The port driven with %s; its utilisation read as the server reads it (the busier of ifHCInOctets/"
                + "ifHCOutOctets deltas x 8 over the time between counter changes, against the speed) over %d s of paced round trips"
                + " before and over the measuring time after, each within %.0f points of the load (a load of 0: at most the round"
                + " trips' share plus that). The agents' own round trips are part of the port's load: started at most one per"
                + " interval so that they take at most %.0f %% of the port's speed (estimated per size: message + %d B GIOP + %d B"
                + " per TCP segment + one acknowledgement). Bands: each load above 90 stands for the percents above the previous"
                + " load above 90 (or from 91) up to itself. Measured: %s",
            settings.cpuCellsFrom().getFileName(), base.provenance().source(), settings.peerReference(), settings.portIfIndex(),
            settings.portAgent(), settings.portSpeedMbps(), settings.roundTrips(), settings.warmupRoundTrips(),
            settings.peerAgent() == null ? "not checked (no --peer-snmp)" : "through its SNMP agent's UCD raw CPU counters",
            settings.loadTarget() == null ? "no load" : "iperf3 UDP, 1400-byte datagrams, to " + settings.loadTarget() + ", "
                + settings.traffic().describe(),
            settings.checkSeconds(), settings.tolerancePoints(), settings.sharePercent(), PortPacing.GIOP_OVERHEAD_BYTES,
            PortPacing.FRAME_OVERHEAD_BYTES, loads.toString().trim());
        final Provenance provenance = new Provenance("latency profile measure --peer", hardware(), "JacORB 3.9 on Java "
            + System.getProperty("java.version"), MachineFacts.operatingSystem(), LocalDate.now().toString(), method);
        return new Profile(settings.name(), base.workstationType(), base.layer(), provenance, base.assumptions(), base.portModel(),
            base.cells(), cells);
    }

    private String hardware() {
        String model = "unknown CPU";
        try {
            model = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse(model);
        } catch (IOException e) {
            // descriptive only
        }
        return model + "; this host measured against a peer agent on another host across a switch port ("
            + settings.portAgent() + " ifIndex " + settings.portIfIndex() + ")";
    }
}
