package org.latencyserver.testbed;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.latencyserver.launch.AtomicJsonFile;

/**
 * The status file of a running testbed ({@code STATE/status.json}, layout in
 * {@code docs/testbed.md}): what a program needs to use it — each host's and switch's namespace
 * and address, where each {@code snmpd} answers and with which secrets, and each switch port's
 * IF-MIB ifIndex and bottleneck rate (the server's {@code if_index} and {@code speed_mbps}: a veth
 * reports ifHighSpeed 10000 whatever its tbf allows). Written atomically once {@code up} has
 * finished; gone after {@code down}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param format         {@value #FORMAT}
 * @param testbed        the testbed's name
 * @param prefix         the start of its namespaces' names
 * @param topologyFile   the topology file it was built from
 * @param stateDirectory this file's directory
 * @param startedAt      when {@code up} finished, ISO-8601 UTC
 * @param snmp           the agents' secrets and port
 * @param hosts          in topology order
 * @param switches       in topology order
 * @param links          in topology order
 */
public record TestbedStatus(String format, String testbed, String prefix, String topologyFile, String stateDirectory,
                            String startedAt, Snmp snmp, List<Host> hosts, List<Switch> switches, List<Link> links) {

    /** This layout's name and version. */
    public static final String FORMAT = "latency-testbed-status/1";

    private static final ObjectMapper JSON = new ObjectMapper()
        .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .setSerializationInclusion(JsonInclude.Include.ALWAYS)
        .enable(SerializationFeature.INDENT_OUTPUT)
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * The agents' access, the same for every agent of the testbed.
     *
     * @param port         UDP port of every agent
     * @param community    v2c read-only community
     * @param v3User       v3 user (authPriv)
     * @param authProtocol {@code SHA}
     * @param authPassword its password
     * @param privProtocol {@code AES} (AES-128)
     * @param privPassword its password
     */
    public record Snmp(int port, String community, String v3User, String authProtocol, String authPassword,
                       String privProtocol, String privPassword) {
    }

    /**
     * One {@code snmpd}.
     *
     * @param address where it listens (its port is {@link Snmp#port})
     * @param pid     its process
     * @param config  its configuration file
     */
    public record Agent(String address, long pid, String config) {
    }

    /**
     * A host.
     *
     * @param name          its name
     * @param namespace     its network namespace ({@code ip netns exec NAMESPACE ...})
     * @param switchName    the switch it is plugged into
     * @param address       its address
     * @param prefixLength  its network's prefix length
     * @param interfaceName its one interface
     * @param snmpd         its agent
     * @param cpuCore       the core its agent reports as its CPU (UCD-SNMP-MIB's raw counters), or null: the whole
     *                      machine's, as every namespace's {@code /proc/stat} is
     */
    public record Host(String name, String namespace, @JsonProperty("switch") String switchName, String address,
                       int prefixLength, @JsonProperty("interface") String interfaceName, Agent snmpd,
                       @JsonProperty("cpu_core") Integer cpuCore) {

        /** A host whose agent reports the whole machine's CPU. */
        public Host(final String name, final String namespace, final String switchName, final String address,
                    final int prefixLength, final String interfaceName, final Agent snmpd) {
            this(name, namespace, switchName, address, prefixLength, interfaceName, snmpd, null);
        }
    }

    /**
     * A switch.
     *
     * @param name              its name
     * @param namespace         its network namespace
     * @param bridge            its bridge
     * @param managementAddress the bridge's address
     * @param prefixLength      its network's prefix length
     * @param snmpd             its agent (IF-MIB of its ports)
     * @param ports             its ports
     */
    public record Switch(String name, String namespace, String bridge, String managementAddress, int prefixLength,
                         Agent snmpd, List<Port> ports) {
    }

    /**
     * A switch port.
     *
     * @param name          the host's or link's name
     * @param interfaceName its interface in the switch's namespace
     * @param ifIndex       its IF-MIB ifIndex (the kernel's ifindex in that namespace)
     * @param toward        the host or switch its egress (ifOutOctets) goes to
     * @param bottleneck    its egress limit, or null
     * @param discardsOid   for a bottleneck, the OID at which the switch's snmpd serves the packets its {@code tbf}
     *                      dropped (IF-MIB ifOutDiscards of the port: Linux counts a qdisc's drops only in
     *                      {@code tc -s}); the server's {@code snmp.discards_oid}. Null for a port without one
     */
    public record Port(String name, @JsonProperty("interface") String interfaceName, int ifIndex, String toward,
                       Limit bottleneck, @JsonProperty("discards_oid") String discardsOid) {

        /** IF-MIB ifOutDiscards, to which a port's ifIndex is appended. */
        public static final String IF_OUT_DISCARDS = "1.3.6.1.2.1.2.2.1.19.";

        /** A port whose drops, when it has a bottleneck, are served at its ifOutDiscards. */
        public Port(final String name, final String interfaceName, final int ifIndex, final String toward, final Limit bottleneck) {
            this(name, interfaceName, ifIndex, toward, bottleneck, bottleneck == null ? null : IF_OUT_DISCARDS + ifIndex);
        }
    }

    /**
     * A port's {@code tbf}.
     *
     * @param rateMbit    the rate, Mbit/s of Ethernet frames
     * @param speedMbps   the rate as the server's {@code speed_mbps} takes it (whole Mbit/s)
     * @param burstKbyte  bucket depth, KiB
     * @param latencyMs   queue limit, ms
     */
    public record Limit(double rateMbit, long speedMbps, long burstKbyte, long latencyMs) {

        /** @return the limit of a bottleneck */
        public static Limit of(final Bottleneck bottleneck) {
            return new Limit(bottleneck.rateMbitPerSecond(), bottleneck.speedMbps(), bottleneck.burstKbytes(),
                bottleneck.latencyMillis());
        }
    }

    /**
     * A link between switches.
     *
     * @param name       its name (its ports' name on both switches)
     * @param between    its two switches
     * @param toward     the switch its bottleneck sends to, or null
     * @param bottleneck its limit, or null
     */
    public record Link(String name, List<String> between, String toward, Limit bottleneck) {
    }

    /** @return the host of that name */
    public Optional<Host> host(final String name) {
        return hosts.stream().filter(h -> h.name().equals(name)).findFirst();
    }

    /** @return the switch of that name */
    public Optional<Switch> switchNamed(final String name) {
        return switches.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** @return the namespace of a host or switch of that name */
    public Optional<String> namespaceOf(final String node) {
        return host(node).map(Host::namespace).or(() -> switchNamed(node).map(Switch::namespace));
    }

    /**
     * @param file where
     * @throws IOException when it cannot be written
     */
    public void write(final Path file) throws IOException {
        AtomicJsonFile.write(file, this, JSON);
    }

    /**
     * @param file a status file
     * @return its content
     * @throws IOException naming the file when it cannot be read or is not of this format
     */
    public static TestbedStatus read(final Path file) throws IOException {
        return AtomicJsonFile.read(file, TestbedStatus.class, JSON, "a testbed status file", TestbedStatus::format, FORMAT);
    }

    /** @return this status as JSON text */
    public String toJson() throws IOException {
        return JSON.writeValueAsString(this);
    }
}
