package org.latencyserver.agent.client;

import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import org.latencyserver.agent.measure.RunResult;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.OperationDisabled;
import org.latencyserver.idl.latency.ResultRefused;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.orb.Backoff;
import org.latencyserver.orb.References;
import org.omg.CORBA.SystemException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A measured run's way to the server: its {@code MeasuredResult} (the histogram's bins, the moments, the request's
 * ticket, the agent's name with how adaptive sampling or the time budget ended it) and one {@code submit_measurement}
 * call, retried with back-off while the server cannot be reached, until the request's deadline.
 *
 * <p>Used by the {@link MeasurementAgent}'s measuring thread only; not thread-safe. Logs under the agent's logger.
 */
final class ResultSubmission {

    private static final Logger LOG = LoggerFactory.getLogger(MeasurementAgent.class);

    private final ServerConnection server;
    private final RequestIntake intake;
    private final String agentName;
    /** False once the agent stops. */
    private final BooleanSupplier running;
    /** The agent's wait between tries (an interrupt ends it and stops the agent), ms. */
    private final LongConsumer sleep;

    ResultSubmission(final ServerConnection server, final RequestIntake intake, final String agentName,
                     final BooleanSupplier running, final LongConsumer sleep) {
        this.server = server;
        this.intake = intake;
        this.agentName = agentName;
        this.running = running;
        this.sleep = sleep;
    }

    /**
     * Submits the run's result, retrying an unreachable server with back-off until the request's deadline or until the
     * agent stops; a refusal by the server is logged and ends it.
     *
     * @param what     the request in words, for the log
     * @param received the request
     * @param run      its round trips
     */
    void submit(final String what, final ReceivedRequest received, final RunResult run) {
        final MeasurementRequest request = received.request();
        final String agent = run.savedRoundTrips() > 0
            ? String.format(Locale.ROOT, "%s (%s: %d of %d round trips)", agentName,
                run.stoppedByTime() ? "time budget" : "adaptive", run.recordedRoundTrips(),
                run.recordedRoundTrips() + run.savedRoundTrips())
            : agentName;
        final MeasuredResult result = new MeasuredResult(request.index_ref, request.ticket, bins(run), run.recordedRoundTrips(),
            run.meanMillis(), run.stdDevMillis(), run.maxMillis(), run.warmupRoundTrips(), run.gcPauseOverlapNanos(), agent,
            run.batchMeansMillis());
        final Backoff backoff = new Backoff(500, 5_000);
        while (running.getAsBoolean() && !intake.expired(received)) {
            try {
                server.get().submit_measurement(result);
                LOG.info(String.format(Locale.ROOT,
                    "%s: submitted mean %.4f ms +/- %.4f ms (95 %% CI), max %.3f ms, %d round trips%s, own GC during the run %.1f ms",
                    what, run.meanMillis(), run.halfWidthMillis(), run.maxMillis(), run.recordedRoundTrips(),
                    run.savedRoundTrips() > 0 ? " (" + run.savedRoundTrips() + " saved by adaptive sampling)" : "",
                    run.gcPauseOverlapNanos() / 1e6));
                return;
            } catch (ResultRefused e) {
                LOG.warn("{}: the server refused the result: {}", what, e.reason);
                return;
            } catch (OperationDisabled e) {
                LOG.error("{}: the server does not let this agent submit: {}", what, e.reason);
                return;
            } catch (UnknownConnection e) {
                LOG.warn("{}: the server no longer has this connection: {}", what, e.reason);
                return;
            } catch (SystemException | References.ReferenceException e) {
                server.invalidate();
                final long delayMillis = intake.retryDelayMillis(received, backoff.nextDelayMillis());
                LOG.warn("{}: the server cannot be reached to submit ({}); retrying in {} ms", what, MeasurementAgent.describe(e), delayMillis);
                sleep.accept(delayMillis);
            }
        }
        if (running.getAsBoolean()) {
            LOG.warn("{}: the result could not be submitted before the deadline; the server re-issues the request", what);
        } else {
            LOG.info("{}: stopping before the result was submitted; the server re-issues the request", what);
        }
    }

    private static HistogramBins bins(final RunResult run) {
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(run.histogramNanos());
        return new HistogramBins(histogram.upperEdgesNanos(), histogram.counts(), histogram.overflowCount());
    }
}
