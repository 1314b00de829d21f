package org.latencyserver.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlBaselineMeasurements;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.mirror.EstimateMirror;
import org.latencyserver.mirror.MirrorRecord;
import org.latencyserver.mirror.ReadStatus;
import org.latencyserver.orb.References;
import org.latencyserver.testkit.MetricsText;
import org.omg.CORBA.ORB;

/**
 * The acknowledged writes {@link StandbyLoadKillHarness} makes before each kill and checks after it:
 * {@code PutMibUpdates} of connection 1, {@code UpdateResponse} answering connection 5's request,
 * {@code submit_measurement} answering connection 7's (each request opened by a load change of
 * that connection's client node). What the primary served after each acknowledgement is what the
 * new primary must serve. Main thread only.
 */
final class KillChecks {

    private final ORB orb;
    private final Random random = new Random(7);

    KillChecks(final ORB orb) {
        this.orb = orb;
    }

    /** What the primary served after the acknowledged writes. */
    record Acknowledged(int cpu1, float estimate5, float upper5, float lower5, double estimate7, float tableEstimate7) {
    }

    Acknowledged writeBeforeKill(final LatencyService primary, final int kill) throws Exception {
        final int cpu1 = (kill % 2 == 0 ? 5 : 75) + kill % 20;
        StandbyLoadKillHarness.push(primary, (short) 1, cpu1);
        // The agent's connections take ws1's load too (readings are pushed per connection): a measurement in flight at the kill.
        StandbyLoadKillHarness.push(primary, (short) 4, cpu1);
        StandbyLoadKillHarness.push(primary, (short) 6, cpu1);

        StandbyLoadKillHarness.push(primary, (short) 5, kill % 2 == 0 ? 90 : 10);
        awaitRequest(primary, (short) 5);
        final float average = 2.0f + (kill % 50) * 0.01f;
        primary.UpdateResponse(new IdlBaselineMeasurements((short) 5, average, average, average + 0.1f, average - 0.1f, (short) 1),
            (short) 5);
        final TableRow row5 = primary.RequestTableStatus((short) 5);

        StandbyLoadKillHarness.push(primary, (short) 7, kill % 2 == 0 ? 90 : 10);
        final MeasurementRequest request = awaitRequest(primary, (short) 7);
        primary.submit_measurement(result(request, 150_000 + kill * 1_000L));
        final double estimate7 = primary.current_estimate((short) 7).value_ms;
        final TableRow row7 = primary.RequestTableStatus((short) 7);
        return new Acknowledged(cpu1, row5.latency_estimate, row5.upper_bound_estimate, row5.lower_bound_estimate, estimate7,
            row7.latency_estimate);
    }

    /** @return the mismatches between what the primary served after its acknowledgements and what the new one serves */
    List<String> compare(final LatencyService newPrimary, final Acknowledged acknowledged) throws Exception {
        final List<String> lost = new ArrayList<>();
        final int cpu1 = newPrimary.RequestTableStatus((short) 1).latest_client_mib_cpu;
        if (cpu1 != acknowledged.cpu1()) {
            lost.add("PutMibUpdates: CPU " + cpu1 + ", acknowledged " + acknowledged.cpu1());
        }
        final TableRow row5 = newPrimary.RequestTableStatus((short) 5);
        if (row5.latency_estimate != acknowledged.estimate5() || row5.upper_bound_estimate != acknowledged.upper5()
            || row5.lower_bound_estimate != acknowledged.lower5()) {
            lost.add(String.format(Locale.ROOT, "UpdateResponse: %s [%s, %s], acknowledged %s [%s, %s]", row5.latency_estimate,
                row5.lower_bound_estimate, row5.upper_bound_estimate, acknowledged.estimate5(), acknowledged.lower5(),
                acknowledged.upper5()));
        }
        final double estimate7 = newPrimary.current_estimate((short) 7).value_ms;
        final float table7 = newPrimary.RequestTableStatus((short) 7).latency_estimate;
        if (estimate7 != acknowledged.estimate7() || table7 != acknowledged.tableEstimate7()) {
            lost.add("submit_measurement: " + estimate7 + " ms, acknowledged " + acknowledged.estimate7() + " ms");
        }
        return lost;
    }

    /** @return the new primary found by name: the first RequestTableStatus answered after the kill */
    Latserv awaitNewPrimary(final String naming, final long killedNanos, final ChildProcess standby) throws InterruptedException {
        while (System.nanoTime() - killedNanos < StandbyLoadKillHarness.READY.toNanos()) {
            try {
                final Latserv server = LatservHelper.narrow(References.resolve(orb, StandbyLoadKillHarness.PARTITION_NAME, naming));
                server.RequestTableStatus((short) 1);
                return server;
            } catch (org.omg.CORBA.SystemException | References.ReferenceException e) {
                Thread.sleep(10);
            }
        }
        throw new IllegalStateException("no takeover within " + StandbyLoadKillHarness.READY + ":\n" + standby.logEnd());
    }

    /**
     * Flips ws1's load on the new primary (LOW to HIGH or back: a different CPU state pair for connections 1, 4 and 6)
     * and waits, in one loop, for the mirror to show it and for the agent's first measurement on the new primary (its
     * {@code submit_measurement} calls counted there).
     *
     * The flip's writes are retried while the new primary answers them {@code TRANSIENT}: it serves reads as soon as it
     * has bound the name, and acknowledges writes only after its lease's fence.
     *
     * @return ms from the kill to each: {mirror, agent, the first write the new primary acknowledged}
     */
    long[] flipAndAwait(final LatencyService newPrimary, final int kill, final EstimateMirror mirror, final String metricsUrl,
                        final long killedNanos) throws Exception {
        final boolean high = kill % 2 == 0;
        long writeMillis = -1;
        for (final short indexRef : new short[] {1, 4, 6}) {
            while (true) {
                try {
                    StandbyLoadKillHarness.push(newPrimary, indexRef, high ? 80 : 10);
                    break;
                } catch (org.omg.CORBA.TRANSIENT inFence) {
                    if (System.nanoTime() - killedNanos > StandbyLoadKillHarness.READY.toNanos()) {
                        throw new IllegalStateException("the new primary acknowledged no write within " + StandbyLoadKillHarness.READY);
                    }
                    Thread.sleep(10);
                }
            }
            if (writeMillis < 0) {
                writeMillis = (System.nanoTime() - killedNanos) / 1_000_000;
            }
        }
        final int cpuStateCode = high ? 32 : 12;
        final MirrorRecord record = new MirrorRecord();
        long mirrorMillis = -1;
        long agentMillis = -1;
        long nextScrapeNanos = 0;
        while (mirrorMillis < 0 || agentMillis < 0) {
            final long now = System.nanoTime();
            if (now - killedNanos > StandbyLoadKillHarness.READY.toNanos()) {
                throw new IllegalStateException((mirrorMillis < 0 ? "the mirror did not show ws1's change" : "the agent made no"
                    + " measurement") + " on the new primary within " + StandbyLoadKillHarness.READY);
            }
            if (mirrorMillis < 0 && mirror.read(1, record) == ReadStatus.OK && record.cpuState() == cpuStateCode && !record.stale()) {
                mirrorMillis = (now - killedNanos) / 1_000_000;
            }
            if (agentMillis < 0 && now > nextScrapeNanos) {
                nextScrapeNanos = now + 20_000_000L;
                if (MetricsText.scrape(metricsUrl).value("latency_server_calls_total", "operation", "submit_measurement").orElse(0.0) > 0) {
                    agentMillis = (System.nanoTime() - killedNanos) / 1_000_000;
                }
            }
            Thread.sleep(2);
        }
        return new long[] {mirrorMillis, agentMillis, writeMillis};
    }

    private static MeasurementRequest awaitRequest(final LatencyService server, final short indexRef) throws InterruptedException {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (final MeasurementRequest request : server.pending_measurements()) {
                if (request.index_ref == indexRef) {
                    return request;
                }
            }
            Thread.sleep(2);
        }
        throw new IllegalStateException("no measurement request of connection " + indexRef + " within 10 s of its load change");
    }

    /** 200 round trips around the given ns, as an agent sends them. */
    private MeasuredResult result(final MeasurementRequest request, final long centreNanos) {
        final Histogram hdr = new Histogram(1, 60_000_000_000L, 3);
        for (int i = 0; i < 200; i++) {
            hdr.recordValue(centreNanos + (long) (Math.abs(random.nextGaussian()) * 30_000));
        }
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(hdr);
        return new MeasuredResult(request.index_ref, request.ticket,
            new HistogramBins(histogram.upperEdgesNanos(), histogram.counts(), histogram.overflowCount()), hdr.getTotalCount(),
            hdr.getMean() / 1e6, hdr.getStdDeviation() / 1e6, hdr.getMaxValue() / 1e6, 20, 0, "standby-load-kill-harness",
            new double[0]);
    }
}
