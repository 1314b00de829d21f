package org.latencyserver.server.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A flood of one warning becomes a counter and one line per interval, in a logback context of its own. */
class RepeatedWarningFilterTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final RepeatedWarningFilter filter = new RepeatedWarningFilter(10_000, nanos::get);
    private final ListAppender<ILoggingEvent> written = new ListAppender<>();
    private Logger jacorb;
    private Logger other;

    @BeforeEach
    void context() {
        final LoggerContext context = new LoggerContext();
        filter.setContext(context);
        filter.start();
        context.addTurboFilter(filter);
        written.setContext(context);
        written.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(written);
        context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);
        jacorb = context.getLogger("org.jacorb.poa.controller");
        other = context.getLogger("org.latencyserver.server.corba.Refusals");
    }

    @Test
    void aThousandPoolExhaustedWarningsAreCountedAndWrittenOncePerInterval() {
        for (int i = 0; i < 1000; i++) {
            jacorb.warn("Thread pool exhausted, consider increasing jacorb.poa.thread_pool_max (currently: 20)");
        }
        assertEquals(1000, filter.poolExhausted());
        assertEquals(1, written.list.size(), "one line in the first interval");
        nanos.addAndGet(10_000_000_000L);
        jacorb.warn("Thread pool exhausted, consider increasing jacorb.poa.thread_pool_max (currently: 20)");
        assertEquals(3, written.list.size(), "after the interval: how many were held back, then the warning");
        assertEquals("(the warning below occurred 999 more times since it was last logged; counted, not logged)",
            written.list.get(1).getFormattedMessage());
        assertEquals(999, filter.suppressed());
    }

    @Test
    void messagesThatDifferOnlyInNumbersAndObjectHashesAreOneKind() {
        for (int i = 0; i < 500; i++) {
            jacorb.error("Failed to read GIOP message in ServerGIOPConnection@" + Integer.toHexString(0x1a2b3c + i * 7919)
                + " to 127.0.0.1:" + (40_000 + i) + ", incorrect magic number");
        }
        assertEquals(1, written.list.size(), "one line for 500 connections sending junk");
        assertEquals(499, filter.suppressed());
    }

    @Test
    void differentKindsOfWarningAreHeldBackSeparatelyAndInfoPassesUntouched() {
        other.warn("PutMibUpdates refused (not_permitted): {}", "one");
        other.warn("load_profile refused (not_permitted): {}", "two");
        other.warn("PutMibUpdates refused (not_permitted): {}", "three");
        for (int i = 0; i < 5; i++) {
            other.info("an informational line {}", i);
        }
        assertEquals(2 + 5, written.list.size());
        assertEquals(1, filter.suppressed());
    }

    @Test
    void anUninstalledFilterIsGoneFromTheGlobalContextSoThatAStoppedServerLeavesNoneBehind() {
        final LoggerContext global = (LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory();
        final RepeatedWarningFilter installed = RepeatedWarningFilter.install(10_000);
        assertTrue(global.getTurboFilterList().contains(installed));
        installed.uninstall();
        installed.uninstall();
        assertFalse(global.getTurboFilterList().contains(installed));
        assertFalse(installed.isStarted());
    }
}
