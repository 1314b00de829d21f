package org.latencyserver.emulator;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.latencyserver.orb.TlsStores;

/**
 * What one {@link SnmpEmulator} runs: the scenario, who may read its agents, where they listen,
 * whether it also pushes to a server, and where it keeps its status file. Set with the fluent
 * setters, then {@link SnmpEmulator#launch(EmulatorContext) launch}: launching validates first
 * ({@link #validate()}).
 *
 * <p>Not thread-safe: configure it on one thread, then launch it; do not change it afterwards.
 */
public final class EmulatorContext {
    private Scenario scenario;
    private AccessConfig access;
    private InetAddress bindAddress = InetAddress.getLoopbackAddress();
    private String pushTo;
    private TlsStores pushTls;
    private boolean pushOnly;
    private int ioThreads = 1;
    private Path statusFile;
    private LongSupplier nanoTime = System::nanoTime;
    private Consumer<ScenarioStatus> onStep = status -> { };

    /** @return this, to follow the validated scenario */
    public EmulatorContext scenario(Scenario scenario) {
        this.scenario = scenario;
        return this;
    }

    /** @return this, with who may read the agents (not needed with {@link #pushOnly(boolean)}) */
    public EmulatorContext access(AccessConfig access) {
        this.access = access;
        return this;
    }

    /** @return this, with the local address every agent listens on (default: loopback) */
    public EmulatorContext bindAddress(InetAddress bindAddress) {
        this.bindAddress = bindAddress;
        return this;
    }

    /** @return this, also pushing PutMibUpdates at 10 Hz to this IOR or corbaloc (null: no push) */
    public EmulatorContext pushTo(String reference) {
        this.pushTo = reference;
        return this;
    }

    /** @return this, pushing over IIOP/TLS with these stores (null: plain IIOP) */
    public EmulatorContext pushTls(TlsStores stores) {
        this.pushTls = stores;
        return this;
    }

    /** @return this, starting no SNMP agents, only pushing (needs {@link #pushTo(String)}) */
    public EmulatorContext pushOnly(boolean pushOnly) {
        this.pushOnly = pushOnly;
        return this;
    }

    /**
     * @param ioThreads how many threads read all the agents' sockets (default 1); 0 for a listener
     *                  thread per agent, the way the emulator ran before it had to run thousands
     * @return this
     */
    public EmulatorContext ioThreads(int ioThreads) {
        this.ioThreads = ioThreads;
        return this;
    }

    /** @return this, rewriting a {@link ScenarioStatus} here at start and at every step change (null: none) */
    public EmulatorContext statusFile(Path statusFile) {
        this.statusFile = statusFile;
        return this;
    }

    /**
     * @param nanoTime the clock the scenario's time is measured on, in nanoseconds, never decreasing
     *                 (default {@link System#nanoTime()}; tests pass one they advance themselves)
     * @return this
     */
    public EmulatorContext nanoTime(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        return this;
    }

    /**
     * @param onStep told every step change (the first step at launch included), on the emulator's
     *               step thread; it must not block (default: nothing)
     * @return this
     */
    public EmulatorContext onStep(Consumer<ScenarioStatus> onStep) {
        this.onStep = onStep;
        return this;
    }

    /**
     * Checks the settings together.
     *
     * @return this
     * @throws IllegalArgumentException naming the setting (as its command-line option) that is missing or contradicts another
     */
    public EmulatorContext validate() {
        if (scenario == null) {
            throw new IllegalArgumentException("no scenario (--scenario FILE)");
        }
        if (pushOnly && pushTo == null) {
            throw new IllegalArgumentException("--push-only needs --push-to REF");
        }
        if (pushTo != null && pushTo.isBlank()) {
            throw new IllegalArgumentException("--push-to is empty; give an IOR or corbaloc of a Latency Server");
        }
        if (!pushOnly && access == null) {
            throw new IllegalArgumentException("no SNMP access (a community or an SNMPv3 user) for the agents");
        }
        if (ioThreads < 0) {
            throw new IllegalArgumentException("--io-threads must be at least 1 (or --thread-per-agent), got " + ioThreads);
        }
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(nanoTime, "nanoTime");
        Objects.requireNonNull(onStep, "onStep");
        return this;
    }

    Scenario scenario() {
        return scenario;
    }

    AccessConfig access() {
        return pushOnly ? new AccessConfig(Optional.empty(), Optional.empty()) : access;
    }

    InetAddress bindAddress() {
        return bindAddress;
    }

    int ioThreads() {
        return ioThreads;
    }

    String pushTo() {
        return pushTo;
    }

    TlsStores pushTls() {
        return pushTls;
    }

    boolean pushOnly() {
        return pushOnly;
    }

    Path statusFile() {
        return statusFile;
    }

    LongSupplier nanoTime() {
        return nanoTime;
    }

    Consumer<ScenarioStatus> onStep() {
        return onStep;
    }
}
