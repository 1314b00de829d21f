package org.latencyserver.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.HdrHistogram.Recorder;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ReadyFile;

/**
 * One partition's server as {@link PartitionsScaleHarness} follows it: its process and reference, the workstations
 * whose connections it serves, and what the harness measured of it (first HIGH estimates, pushes received, reads).
 *
 * <p>Thread-safety: set up on the harness's main thread; {@link #firstHigh} and {@link #pushesReceived} are written by
 * ORB threads; {@link #reading} is switched by the main thread while the partition's reader thread records into it and
 * counts {@link #readErrors}, which the main thread reads after a join of at most 5 s (a reader still running then
 * may race it: the figure is a count for the report, not a check).
 */
final class ScalePartition {
    final int number;
    final String name;
    final int firstClient;
    final int clients;
    ChildProcess process;
    ReadyFile ready;
    LatencyService service;
    /** index_ref → its client's workstation number (1-based, global). */
    final Map<Short, Integer> clientOf = new LinkedHashMap<>();
    /** The subscribed connections whose client goes HIGH: index_ref → epoch ms of the first HIGH estimate computed / arrived. */
    final Map<Short, long[]> firstHigh = new ConcurrentHashMap<>();
    int subscribed;
    /** Every pushed estimate this harness received from the partition's server, HIGH or not. */
    final java.util.concurrent.atomic.AtomicLong pushesReceived = new java.util.concurrent.atomic.AtomicLong();
    final Recorder quietReads = new Recorder(3);
    final Recorder stormReads = new Recorder(3);
    volatile Recorder reading;
    long readErrors;

    ScalePartition(final int number, final int clients) {
        this.number = number;
        this.name = "p" + (number + 1);
        this.firstClient = number * clients + 1;
        this.clients = clients;
    }

    int sources() {
        return clients + clients / PartitionsScaleHarness.WORKSTATIONS_PER_SWITCH_PORT;
    }

    boolean storms(final int workstation) {
        return workstation - firstClient < clients * PartitionsScaleHarness.STORM_PERCENT_OF_CLIENTS / 100;
    }
}
