package org.latencyserver.agent.profiler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Drives a switch port with Debian's {@code iperf3} in UDP mode, from this host to an {@code iperf3 -s}
 * on the far side of the port: {@code iperf3 -c ADDR -p PORT -u -l 1400 -b RATE} or, bursty ({@link PortTraffic}),
 * {@code -b RATE/PACKETS}.
 *
 * <p>iperf3's {@code -b} counts UDP payload, a port's counters whole Ethernet frames: a 1400-byte
 * datagram is a 1442-byte frame (UDP 8, IPv4 20, Ethernet 14), so a port load of P % of S Mbit/s is
 * asked as {@code P/100 × S × 1400/1442} Mbit/s of payload ({@link #payloadBitsPerSecond}).
 *
 * <p>One run of the profiler owns one driver; not thread-safe.
 */
final class PortLoadDriver implements AutoCloseable {

    static final Path IPERF3 = Path.of("/usr/bin/iperf3");
    static final int DATAGRAM_BYTES = 1400;
    static final int FRAME_BYTES = DATAGRAM_BYTES + 8 + 20 + 14;

    private final String address;
    private final int port;
    private final double speedMbps;
    private final Path logFile;
    private final PortTraffic traffic;
    private Process iperf;
    private double drivenPercent;

    /**
     * @param target    {@code ADDR} or {@code ADDR:PORT} of the iperf3 server (port 5201 by default)
     * @param speedMbps the port's speed
     * @param logFile   where iperf3's output goes
     * @param traffic   the cross-traffic's shape
     */
    PortLoadDriver(final String target, final double speedMbps, final Path logFile, final PortTraffic traffic) {
        final int colon = target.lastIndexOf(':');
        this.address = colon < 0 ? target : target.substring(0, colon);
        this.port = colon < 0 ? 5201 : Integer.parseInt(target.substring(colon + 1));
        this.speedMbps = speedMbps;
        this.logFile = logFile;
        this.traffic = traffic;
    }

    /** @return true when iperf3 is installed where Debian puts it */
    static boolean available() {
        return Files.isExecutable(IPERF3);
    }

    /**
     * @param portPercent the port's utilisation wanted, of its speed (frames), {@code >= 0}
     * @param speedMbps   the port's speed
     * @return the UDP payload rate to ask iperf3 for, bit/s
     */
    static long payloadBitsPerSecond(final double portPercent, final double speedMbps) {
        return Math.round(portPercent / 100.0 * speedMbps * 1e6 * DATAGRAM_BYTES / FRAME_BYTES);
    }

    /**
     * Replaces the load by one of {@code portPercent}; 0 stops it.
     *
     * @throws IOException when iperf3 exits at once (its output is in the message: no server, refused)
     */
    void drive(final double portPercent) throws IOException, InterruptedException {
        stop();
        drivenPercent = portPercent;
        if (portPercent <= 0) {
            return;
        }
        final List<String> command = command(portPercent);
        for (int attempt = 1; ; attempt++) {
            iperf = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
            if (!iperf.waitFor(1_500, TimeUnit.MILLISECONDS)) {
                return;
            }
            // the server may still be finishing the previous test ("the server is busy", or a reset control
            // connection when a stopped client's end and a new start cross): try again shortly
            final String output = Files.readString(logFile).strip();
            if (attempt >= 5) {
                throw new IOException("iperf3 to " + address + ":" + port + " ended at once (exit " + iperf.exitValue() + "): "
                    + output + " -- is `iperf3 -s` running on the port's far side?");
            }
            Thread.sleep(1_000);
        }
    }

    /**
     * @param portPercent the port's utilisation wanted, {@code > 0}
     * @return the iperf3 command line that drives it
     */
    List<String> command(final double portPercent) {
        return List.of(IPERF3.toString(), "-c", address, "-p", Integer.toString(port), "-u", "-l", Integer.toString(DATAGRAM_BYTES),
            "-b", traffic.bitrateArgument(payloadBitsPerSecond(portPercent, speedMbps)), "-t", "86400");
    }

    /** @return the load last asked for, percent of the port's speed */
    double drivenPercent() {
        return drivenPercent;
    }

    /** @return a description for the profile's provenance */
    String describe() {
        return String.format(Locale.ROOT, "iperf3 -c %s -p %d -u -l %d -b (P %% x %.0f Mbit/s x %d/%d)%s: %s", address, port,
            DATAGRAM_BYTES, speedMbps, DATAGRAM_BYTES, FRAME_BYTES, traffic.bursty() ? "/" + traffic.burstPackets() : "",
            traffic.describe());
    }

    /** Stops the load (SIGTERM, so iperf3 ends its test with the server), waiting for it to end. */
    void stop() throws InterruptedException {
        if (iperf != null && iperf.isAlive()) {
            iperf.destroy();
            if (!iperf.waitFor(5, TimeUnit.SECONDS)) {
                iperf.destroyForcibly();
                iperf.waitFor(5, TimeUnit.SECONDS);
            }
        }
        iperf = null;
        drivenPercent = 0;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
