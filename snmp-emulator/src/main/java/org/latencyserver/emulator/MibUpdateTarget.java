package org.latencyserver.emulator;

import org.latencyserver.idl.LatservPackage.IdlMibUpdates;

/**
 * Where push mode delivers its updates: in production the server's {@code Latserv.PutMibUpdates}
 * over CORBA; in tests a recorder.
 *
 * <p>Implementations must be safe to call from one scheduler thread at a time.
 */
@FunctionalInterface
public interface MibUpdateTarget {
    /**
     * Delivers one update.
     *
     * @param update the connection's latest CPU and port percentages
     * @throws RuntimeException on any delivery failure (the caller logs and retries)
     */
    void put(IdlMibUpdates update);
}
