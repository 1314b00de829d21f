package org.latencyserver.testbed;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The configuration file of one testbed {@code snmpd}: it listens on one address of its namespace,
 * answers the v2c community and the v3 authPriv user to the benchmarking range only, names itself
 * after its namespace ({@code sysName}), and keeps its persistent state (engine ID, v3 keys) in a
 * directory of its own, so that no two agents share an engine ID. Only numeric OIDs are used
 * anywhere: Debian ships net-snmp without MIB files.
 *
 * <p>Stateless; thread-safe.
 */
public final class SnmpdConfig {

    /** The port every testbed agent listens on (each in its own namespace). */
    public static final int PORT = 161;

    private SnmpdConfig() {
    }

    /**
     * @param testbed       the testbed's name, for the file's first line
     * @param namespace     the agent's namespace (its sysName)
     * @param address       where it listens
     * @param credentials   who may read
     * @param persistentDir its own persistent directory
     * @return the file's text
     */
    public static String text(final String testbed, final String namespace, final String address, final SnmpCredentials credentials,
                              final Path persistentDir) {
        return text(testbed, namespace, address, credentials, persistentDir, List.of(), null);
    }

    /**
     * A host's agent with a CPU of its own: as {@link #text(String, String, String, SnmpCredentials, Path)}, and
     * UCD-SNMP-MIB's raw CPU counters ({@link #UCD_RAW_CPU}) served by {@code cpuScript} from {@code /proc/stat}'s
     * line of one core instead of the whole machine's.
     *
     * @param cpuCore   the core
     * @param cpuScript the script ({@link #CPU_SCRIPT})
     * @return the file's text
     */
    public static String hostText(final String testbed, final String namespace, final String address,
                                  final SnmpCredentials credentials, final Path persistentDir, final int cpuCore,
                                  final Path cpuScript) {
        final List<String> passes = new ArrayList<>();
        for (final String oid : UCD_RAW_CPU) {
            passes.add("pass_persist ." + oid + " /bin/sh " + cpuScript + " " + cpuCore);
        }
        return text(testbed, namespace, address, credentials, persistentDir, List.of(), null).stripTrailing() + "\n"
            + String.join("\n", passes) + "\n";
    }

    /**
     * UCD-SNMP-MIB's raw CPU counters a host's own core is served at: ssCpuRawUser, Nice, System, Idle, Wait,
     * Kernel and Interrupt (.1.3.6.1.4.1.2021.11.50.0 to .56.0), what the server's poller reads.
     */
    public static final List<String> UCD_RAW_CPU = List.of("1.3.6.1.4.1.2021.11.50.0", "1.3.6.1.4.1.2021.11.51.0",
        "1.3.6.1.4.1.2021.11.52.0", "1.3.6.1.4.1.2021.11.53.0", "1.3.6.1.4.1.2021.11.54.0", "1.3.6.1.4.1.2021.11.55.0",
        "1.3.6.1.4.1.2021.11.56.0");

    /**
     * net-snmp's {@code pass_persist} protocol, as {@code /bin/sh SCRIPT CORE}: a {@code get} of a raw CPU counter
     * answered from {@code /proc/stat}'s {@code cpuCORE} line, in its ticks (USER_HZ) as net-snmp's own counters are:
     * user, nice, system, idle, iowait as wait, system as kernel (net-snmp's kernel is part of system), irq + softirq
     * as interrupt; Counter32. Anything else gets {@code NONE}.
     */
    public static final String CPU_SCRIPT = passPersistScript(
        "serves one core of /proc/stat as this host's UCD-SNMP-MIB raw CPU counters.", List.of("core=$1"),
        List.of("      set -- $(grep \"^cpu$core \" /proc/stat)",
            "      case \"$oid\" in",
            "        *.11.50.0) value=$2 ;;",
            "        *.11.51.0) value=$3 ;;",
            "        *.11.52.0) value=$4 ;;",
            "        *.11.53.0) value=$5 ;;",
            "        *.11.54.0) value=$6 ;;",
            "        *.11.55.0) value=$4 ;;",
            "        *.11.56.0) value=$(( $7 + $8 )) ;;",
            "        *) echo NONE; continue ;;",
            "      esac",
            "      echo \"$oid\"; echo counter; echo $(( ${value:-0} % 4294967296 )) ;;"));

    /**
     * A script speaking net-snmp's {@code pass_persist} protocol on standard input and output: {@code PING} answered
     * {@code PONG}, {@code get} read with its OID into {@code $oid} and answered by {@code getLines}, {@code getnext}
     * answered {@code NONE}, {@code set} refused, end of input (the agent stopping) the end.
     *
     * @param what     what it serves, for its comment line
     * @param preamble lines run once at start (e.g. naming an argument)
     * @param getLines the {@code get} branch after the OID is read: prints the OID, its type and value, ends with {@code ;;}
     * @return the script's text
     */
    private static String passPersistScript(final String what, final List<String> preamble, final List<String> getLines) {
        final List<String> lines = new ArrayList<>(List.of("#!/bin/sh", "# Written by ./latency testbed up: " + what,
            "PATH=/usr/sbin:/sbin:/usr/bin:/bin"));
        lines.addAll(preamble);
        lines.addAll(List.of("while read -r command; do", "  case \"$command\" in", "    PING) echo PONG ;;", "    get)",
            "      read -r oid"));
        lines.addAll(getLines);
        lines.addAll(List.of("    getnext) read -r oid; echo NONE ;;", "    set) read -r oid; read -r value; echo not-writable ;;",
            "    *) exit 0 ;;", "  esac", "done", ""));
        return String.join("\n", lines);
    }

    /**
     * A switch's agent: as {@link #text(String, String, String, SnmpCredentials, Path)}, and for each bottleneck port
     * a {@code pass_persist} of its ifOutDiscards instance to {@code dropsScript}, which reads the port's {@code tbf} drops from
     * {@code tc -s} (Linux counts a qdisc's drops there only; IF-MIB's discards stay 0).
     *
     * @param dropPorts   the bottleneck ports: their ifIndex and interface name
     * @param dropsScript the script ({@link #DROPS_SCRIPT}); unused without drop ports
     * @return the file's text
     */
    public static String text(final String testbed, final String namespace, final String address, final SnmpCredentials credentials,
                              final Path persistentDir, final List<DropPort> dropPorts, final Path dropsScript) {
        final List<String> passes = new ArrayList<>();
        for (final DropPort port : dropPorts) {
            passes.add("pass_persist ." + TestbedStatus.Port.IF_OUT_DISCARDS + port.ifIndex() + " /bin/sh " + dropsScript + " "
                + port.interfaceName());
        }
        return String.join("\n",
            "# snmpd of " + namespace + ", written by ./latency testbed up (testbed " + testbed + "); removed by down.",
            "agentAddress udp:" + address + ":" + PORT,
            "sysName " + namespace,
            "sysLocation latency testbed " + testbed,
            "rocommunity " + credentials.community() + " " + Ipv4Prefix.BENCHMARKING_RANGE,
            "createUser " + credentials.v3User() + " SHA " + credentials.authPassword() + " AES " + credentials.privPassword(),
            "rouser " + credentials.v3User() + " priv",
            "[snmp] persistentDir " + persistentDir,
            String.join("\n", passes),
            "");
    }

    /**
     * A bottleneck port whose drops the switch's agent serves.
     *
     * @param ifIndex       its ifIndex in the switch's namespace
     * @param interfaceName its interface there
     */
    public record DropPort(int ifIndex, String interfaceName) {
    }

    /**
     * net-snmp's {@code pass_persist} protocol, as {@code /bin/sh SCRIPT IFACE}: a process the agent keeps, answering
     * {@code PING} with {@code PONG} and a {@code get} of its instance with the OID, its type and the {@code tbf}'s
     * dropped packets as a Counter32 (0 when the interface has none), read afresh from {@code tc -s} at every request
     * (net-snmp's plain {@code pass} would cache a script's output for 30 s). Anything else gets {@code NONE}.
     */
    public static final String DROPS_SCRIPT = passPersistScript(
        "serves a bottleneck's tbf drops (tc -s) as its IF-MIB ifOutDiscards.", List.of(),
        List.of("      dropped=$(tc -s qdisc show dev \"$1\" 2>/dev/null | sed -n 's/.*dropped \\([0-9]*\\).*/\\1/p' | head -n 1)",
            "      echo \"$oid\"; echo counter; echo $(( ${dropped:-0} % 4294967296 )) ;;"));
}
