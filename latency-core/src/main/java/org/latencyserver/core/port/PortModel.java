package org.latencyserver.core.port;

/**
 * How the intermediate switch port adds latency once it is loaded above 90 % (thesis section
 * 4.2.3, constraint 4: the thesis assumes port and CPU effects add up, and that below 90 % the
 * port adds nothing). Part of a profile, because it depends on the network it was measured on.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public sealed interface PortModel permits ThesisQueuePortModel, MeasuredTablePortModel {

    /** The port utilisation above which the port adds latency, percent. */
    int LOADED_ABOVE_PERCENT = 90;

    /**
     * @param portUtilisationPercent 0..100
     * @param messageSizeBytes       {@code >= 1}
     * @return the added latency; {@link PortContribution#NONE} at or below 90 %
     * @throws IllegalArgumentException when the utilisation is outside 0..100 or the size below 1
     */
    PortContribution contribution(int portUtilisationPercent, int messageSizeBytes);

    /** @return a short name for notes and JSON: {@code thesis-queue} or {@code measured-table} */
    String kind();

    /**
     * @param portUtilisationPercent checked to be in 0..100
     * @param messageSizeBytes       checked to be {@code >= 1}
     */
    static void requireArguments(final int portUtilisationPercent, final int messageSizeBytes) {
        if (portUtilisationPercent < 0 || portUtilisationPercent > 100) {
            throw new IllegalArgumentException("port utilisation must be 0..100 %, was " + portUtilisationPercent);
        }
        if (messageSizeBytes < 1) {
            throw new IllegalArgumentException("message size must be >= 1 byte, was " + messageSizeBytes);
        }
    }
}
