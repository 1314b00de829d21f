package org.latencyserver.server.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;
import org.latencyserver.server.security.Caller;

/** Whom a subscription counts against, and the cap that owners share across both kinds. */
class SubscriptionOwnerTest {

    private static final X500Principal AGENT = new X500Principal("CN=ws1,OU=agent,O=Latency Server");

    @Test
    void aCertificateIsOneOwnerOverEveryConnectionItOpens() {
        final SubscriptionOwner first = SubscriptionOwner.of(new Caller(Caller.Transport.TLS, AGENT, "10.0.0.5:50122"));
        final SubscriptionOwner second = SubscriptionOwner.of(new Caller(Caller.Transport.TLS, AGENT, "10.0.0.6:41000"));
        assertEquals(first, second);
        assertEquals("certificate 'CN=ws1,OU=agent,O=Latency Server'", first.description());
    }

    @Test
    void withoutACertificateEachConnectionIsAnOwnerOfItsOwn() {
        final SubscriptionOwner one = SubscriptionOwner.of(new Caller(Caller.Transport.PLAIN, null, "10.0.0.5:50122"));
        final SubscriptionOwner other = SubscriptionOwner.of(new Caller(Caller.Transport.PLAIN, null, "10.0.0.5:50123"));
        final SubscriptionOwner tlsWithoutCertificate = SubscriptionOwner.of(new Caller(Caller.Transport.TLS, null, "10.0.0.5:50124"));
        assertNotEquals(one, other);
        assertEquals("the plain IIOP connection from 10.0.0.5:50122", one.description());
        assertEquals("the TLS connection from 10.0.0.5:50124", tlsWithoutCertificate.description());
        assertEquals(SubscriptionOwner.UNKNOWN, SubscriptionOwner.of(Caller.PLAIN), "no connection known: one shared owner");
    }

    @Test
    void anOwnerAtItsCapGetsNoMoreUntilOneIsReleasedAndOthersAreNotAffected() {
        final SubscriptionOwners owners = new SubscriptionOwners(2);
        final SubscriptionOwner one = SubscriptionOwner.of(new Caller(Caller.Transport.PLAIN, null, "10.0.0.5:1"));
        final SubscriptionOwner other = SubscriptionOwner.of(new Caller(Caller.Transport.PLAIN, null, "10.0.0.5:2"));
        assertTrue(owners.tryTake(one));
        assertTrue(owners.tryTake(one));
        assertFalse(owners.tryTake(one));
        assertEquals(2, owners.held(one), "a refused take changes nothing");
        assertTrue(owners.tryTake(other));
        owners.release(one);
        assertTrue(owners.tryTake(one));
    }
}
