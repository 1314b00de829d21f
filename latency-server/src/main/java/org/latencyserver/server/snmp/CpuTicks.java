package org.latencyserver.server.snmp;

/**
 * One reading of net-snmp's UCD-SNMP-MIB raw CPU tick counters (ssCpuRaw*, Counter32, in
 * ticks of the host's clock, summed over all processors).
 *
 * <p>Immutable and thread-safe.
 *
 * @param userTicks      ssCpuRawUser (.1.3.6.1.4.1.2021.11.50.0)
 * @param niceTicks      ssCpuRawNice (.51.0)
 * @param systemTicks    ssCpuRawSystem (.52.0)
 * @param idleTicks      ssCpuRawIdle (.53.0)
 * @param waitTicks      ssCpuRawWait (.54.0), 0 when the agent lacks it
 * @param kernelTicks    ssCpuRawKernel (.55.0), 0 when the agent lacks it
 * @param interruptTicks ssCpuRawInterrupt (.56.0), 0 when the agent lacks it
 */
public record CpuTicks(long userTicks, long niceTicks, long systemTicks, long idleTicks, long waitTicks, long kernelTicks,
                       long interruptTicks) {

    /** @return whether every counter is zero, as net-snmp answers in its first seconds, before it has read the kernel */
    public boolean allZero() {
        return userTicks == 0 && niceTicks == 0 && systemTicks == 0 && idleTicks == 0 && waitTicks == 0 && kernelTicks == 0
            && interruptTicks == 0;
    }

    /** @return whether every counter equals the other reading's (net-snmp refreshes them only every few seconds) */
    public boolean sameAs(final CpuTicks other) {
        return equals(other);
    }
}
