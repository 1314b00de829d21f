package org.latencyserver.emulator;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.LongFunction;
import org.snmp4j.smi.Counter32;
import org.snmp4j.smi.Counter64;
import org.snmp4j.smi.Gauge32;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.TimeTicks;
import org.snmp4j.smi.Variable;

/**
 * The read-only MIB view of one emulated agent (a node or a link): a sorted table of OIDs,
 * each with a function of the elapsed time, covering the OIDs net-snmp serves that the
 * Latency Server polls. Supports exact lookup and lexicographic successor (GETNEXT/GETBULK).
 *
 * <p>Immutable after construction and thread-safe.
 */
public final class EmulatedMib {
    /** sysDescr.0 */
    public static final OID SYS_DESCR = new OID("1.3.6.1.2.1.1.1.0");
    /** sysUpTime.0, TimeTicks (hundredths of a second). */
    public static final OID SYS_UPTIME = new OID("1.3.6.1.2.1.1.3.0");
    /** sysName.0 */
    public static final OID SYS_NAME = new OID("1.3.6.1.2.1.1.5.0");
    /** UCD-SNMP-MIB ssCpuRawUser.0, Counter32 ticks. */
    public static final OID SS_CPU_RAW_USER = new OID("1.3.6.1.4.1.2021.11.50.0");
    /** UCD-SNMP-MIB ssCpuRawNice.0, Counter32 ticks. */
    public static final OID SS_CPU_RAW_NICE = new OID("1.3.6.1.4.1.2021.11.51.0");
    /** UCD-SNMP-MIB ssCpuRawSystem.0, Counter32 ticks. */
    public static final OID SS_CPU_RAW_SYSTEM = new OID("1.3.6.1.4.1.2021.11.52.0");
    /** UCD-SNMP-MIB ssCpuRawIdle.0, Counter32 ticks. */
    public static final OID SS_CPU_RAW_IDLE = new OID("1.3.6.1.4.1.2021.11.53.0");
    /** UCD-SNMP-MIB ssCpuRawWait.0, Counter32 ticks (always 0 here). */
    public static final OID SS_CPU_RAW_WAIT = new OID("1.3.6.1.4.1.2021.11.54.0");
    /** HOST-RESOURCES-MIB hrProcessorLoad column; the index is the hrDeviceIndex. */
    public static final OID HR_PROCESSOR_LOAD = new OID("1.3.6.1.2.1.25.3.3.1.2");
    /** First hrDeviceIndex of a processor as net-snmp numbers them (device type 3 × 65536). */
    public static final int FIRST_PROCESSOR_DEVICE_INDEX = 196608;
    /** IF-MIB ifSpeed column (Gauge32, bits per second, capped at 2^32−1). */
    public static final OID IF_SPEED = new OID("1.3.6.1.2.1.2.2.1.5");
    /** IF-MIB ifHCInOctets column (Counter64). */
    public static final OID IF_HC_IN_OCTETS = new OID("1.3.6.1.2.1.31.1.1.1.6");
    /** IF-MIB ifHCOutOctets column (Counter64). */
    public static final OID IF_HC_OUT_OCTETS = new OID("1.3.6.1.2.1.31.1.1.1.10");
    /** IF-MIB ifHighSpeed column (Gauge32, Mbps). */
    public static final OID IF_HIGH_SPEED = new OID("1.3.6.1.2.1.31.1.1.1.15");

    private static final long UNSIGNED_32_MASK = 0xFFFF_FFFFL;

    private final String name;
    private final NavigableMap<OID, LongFunction<Variable>> table;

    private EmulatedMib(String name, NavigableMap<OID, LongFunction<Variable>> table) {
        this.name = name;
        this.table = table;
    }

    /** Builds the MIB of an emulated workstation. */
    public static EmulatedMib forNode(CounterModel model, NodeSpec node) {
        NavigableMap<OID, LongFunction<Variable>> t = systemGroup("workstation " + node.name(), node.name());
        t.put(SS_CPU_RAW_USER, e -> counter32(model.cpuTicks(node, node.counterTimeMicros(e)).userTicks()));
        t.put(SS_CPU_RAW_NICE, e -> counter32(model.cpuTicks(node, node.counterTimeMicros(e)).niceTicks()));
        t.put(SS_CPU_RAW_SYSTEM, e -> counter32(model.cpuTicks(node, node.counterTimeMicros(e)).systemTicks()));
        t.put(SS_CPU_RAW_IDLE, e -> counter32(model.cpuTicks(node, node.counterTimeMicros(e)).idleTicks()));
        t.put(SS_CPU_RAW_WAIT, e -> new Counter32(0));
        for (int core = 0; core < node.cores(); core++) {
            t.put(child(HR_PROCESSOR_LOAD, FIRST_PROCESSOR_DEVICE_INDEX + core),
                    e -> new Integer32(model.scenario().percentAt(node.name(), e)));
        }
        return new EmulatedMib(node.name(), t);
    }

    /** Builds the MIB of an emulated switch port. */
    public static EmulatedMib forLink(CounterModel model, LinkSpec link) {
        NavigableMap<OID, LongFunction<Variable>> t = systemGroup("switch port " + link.name(), link.name());
        long bitsPerSecond = Math.min(link.speedMbps() * 1_000_000L, UNSIGNED_32_MASK);
        t.put(child(IF_SPEED, link.ifIndex()), e -> new Gauge32(bitsPerSecond));
        t.put(child(IF_HC_IN_OCTETS, link.ifIndex()), e -> new Counter64(model.octets(link, e)));
        t.put(child(IF_HC_OUT_OCTETS, link.ifIndex()), e -> new Counter64(model.octets(link, e)));
        t.put(child(IF_HIGH_SPEED, link.ifIndex()), e -> new Gauge32(Math.min(link.speedMbps(), UNSIGNED_32_MASK)));
        return new EmulatedMib(link.name(), t);
    }

    /** @return the emulated node's or link's name */
    public String name() {
        return name;
    }

    /**
     * @param oid the requested instance
     * @param elapsedMicros time since the emulator started
     * @return its value, or null if this agent has no such instance
     */
    public Variable get(OID oid, long elapsedMicros) {
        LongFunction<Variable> f = table.get(oid);
        return f == null ? null : f.apply(elapsedMicros);
    }

    /**
     * @param oid any OID
     * @param elapsedMicros time since the emulator started
     * @return the first instance strictly after {@code oid} with its value, or null at the end of the MIB
     */
    public Map.Entry<OID, Variable> next(OID oid, long elapsedMicros) {
        Map.Entry<OID, LongFunction<Variable>> e = table.higherEntry(oid);
        return e == null ? null : Map.entry(e.getKey(), e.getValue().apply(elapsedMicros));
    }

    private static NavigableMap<OID, LongFunction<Variable>> systemGroup(String description, String name) {
        NavigableMap<OID, LongFunction<Variable>> t = new TreeMap<>();
        OctetString descr = new OctetString("Latency Server snmp-emulator: " + description);
        OctetString sysName = new OctetString(name);
        t.put(SYS_DESCR, e -> new OctetString(descr));
        t.put(SYS_UPTIME, e -> new TimeTicks(CounterModel.upTimeCentis(e)));
        t.put(SYS_NAME, e -> new OctetString(sysName));
        return t;
    }

    private static OID child(OID column, int index) {
        OID oid = new OID(column);
        oid.append(index);
        return oid;
    }

    private static Counter32 counter32(long unwrapped) {
        return new Counter32(unwrapped & UNSIGNED_32_MASK);
    }
}
