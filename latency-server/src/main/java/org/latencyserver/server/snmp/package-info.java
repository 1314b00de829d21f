/**
 * The SNMP poller: reads workstation CPU and switch port utilisation from SNMP agents
 * with SNMP4J and feeds the update engine, as {@code PutMibUpdates} does for pushed values.
 *
 * <h2>What is read</h2>
 * <ul>
 *   <li>Workstation CPU, {@code cpu_source: ucd-raw} (default): net-snmp's UCD-SNMP-MIB raw tick
 *       counters ssCpuRawUser/Nice/System/Idle (.1.3.6.1.4.1.2021.11.50–.53.0, required) and
 *       Wait/Kernel/Interrupt (.54–.56.0, used when present), as the non-idle share of the ticks
 *       since the last changed reading ({@link org.latencyserver.server.snmp.CpuUtilisation}).
 *       net-snmp refreshes these only every ~5 s, so at 10 Hz most polls see unchanged counters: they
 *       keep the last utilisation, and the state never flaps to 0 between refreshes.</li>
 *   <li>Workstation CPU, {@code cpu_source: hr-processor-load}: HOST-RESOURCES-MIB hrProcessorLoad,
 *       averaged over up to 64 processors (one GETBULK). net-snmp on some hosts has no rows; such a
 *       node is then a miss at every poll and becomes UNKNOWN.</li>
 *   <li>Switch port: IF-MIB ifHCInOctets/ifHCOutOctets (.1.3.6.1.2.1.31.1.1.1.6/.10.ifIndex) against
 *       ifHighSpeed (.15.ifIndex, Mbit/s) or the configured {@code speed_mbps}: the busier direction's
 *       bit rate over the speed ({@link org.latencyserver.server.snmp.PortUtilisation}). Counters that
 *       stand still keep the last value for up to 10 s (agents cache them), then mean an idle port.
 *       With {@code discards_oid} (a numeric OID of a counter of the packets the port dropped, e.g.
 *       IF-MIB ifOutDiscards .1.3.6.1.2.1.2.2.1.19.ifIndex on a switch that counts its queue's drops)
 *       a window in which the port carried at least 95 % and that counter moved reads 101, SATURATED;
 *       an unreadable discards answer leaves saturation unobserved for that poll (logged), never the
 *       port's utilisation.</li>
 * </ul>
 *
 * <h2>Faults</h2>
 * Counter32 and Counter64 wrap is counted as one wrap ({@link org.latencyserver.server.snmp.CounterDelta}).
 * sysUpTime.0 is read with every request; when it goes back the agent restarted and the counters'
 * baselines are dropped (no spike; the last value is kept). A timeout, an error status,
 * noSuchObject/noSuchInstance or a value of the wrong type is a miss
 * ({@link org.latencyserver.server.snmp.BadAnswerException} names the OID); after
 * {@code server.unknown_after_missed_polls} misses in a row the source is UNKNOWN (−1 is fed, the
 * engine marks the connection's estimate stale, and the reason is logged once). Its next good answer
 * makes it known again; its utilisation then comes from fresh deltas only.
 *
 * <h2>Timing</h2>
 * One SNMP4J session and one UDP socket (one per distinct {@code local_address}, see Security); every {@code poll_interval_millis} (default 100 ms, 10 Hz)
 * each source gets one asynchronous request with its own {@code timeout_millis} and {@code retries}.
 * A source whose request is still in flight skips that poll, so a dead agent delays nobody else.
 * Values are handed to the engine only when a connection's polled values changed, through
 * {@link org.latencyserver.server.engine.EngineProxy#post} as a {@code Command.PolledMib} (never waiting for the update thread).
 *
 * <h2>Mixed setups</h2>
 * A connection may have polled and pushed ends (for example a polled workstation and a pushed port).
 * The poller replaces only the polled values of the row's latest reading, so a pushed end keeps its
 * last pushed value ({@link org.latencyserver.server.snmp.PolledValues#update}). A pushed
 * {@code PutMibUpdates} for a polled end is applied, and overwritten at the polled end's next change.
 *
 * <h2>Security</h2>
 * v2c communities and v3 passphrases are read from the environment variables the configuration names
 * ({@code community_env}, {@code auth_password_env}, {@code priv_password_env}); a missing one stops
 * the server at start with its name. v3 is USM authPriv: SHA or SHA-256, AES-128 or AES-256.
 * Only UDP agents are supported. The poller's socket is bound to the loopback (127.0.0.1) when every
 * polled agent is on a loopback address, so nothing off this machine can reach it, else to the
 * wildcard; an snmp block's {@code local_address} (an IP address of this machine, checked when the
 * configuration is read) sends that agent's requests from a socket on that address instead. The
 * server logs at start where the poller is bound ({@code SNMP poller sends from ...}).
 */
package org.latencyserver.server.snmp;
