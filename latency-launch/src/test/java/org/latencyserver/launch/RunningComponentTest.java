package org.latencyserver.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RunningComponentTest {

    /** Counts how often it was stopped. */
    static final class Counted extends RunningComponent {
        final AtomicInteger stops = new AtomicInteger();

        @Override
        public ReadyFile.Builder readyFile() {
            return ReadyFile.of(Component.PEER_AGENT).fact("stops", stops.get());
        }

        @Override
        protected void stop() {
            stops.incrementAndGet();
        }

        static Counted launch(final Start<Counted, IOException> start) throws IOException {
            return startedOrClosed(new Counted(), start);
        }
    }

    @Test
    void closingTwiceStopsOnce() {
        final Counted component = new Counted();

        component.close();
        component.close();

        assertEquals(1, component.stops.get());
    }

    @Test
    void aStartThatSucceedsReturnsTheComponentStillRunning() throws IOException {
        final Counted started = Counted.launch(component -> { });

        assertEquals(0, started.stops.get());
    }

    @Test
    void aStartThatFailsHalfWayStopsWhatStartedAndRethrowsTheFailure() {
        final Counted[] launched = new Counted[1];
        final IOException portTaken = new IOException("port 4711 taken");

        final IOException thrown = assertThrows(IOException.class, () -> Counted.launch(component -> {
            launched[0] = component;
            throw portTaken;
        }));

        assertSame(portTaken, thrown);
        assertEquals(1, launched[0].stops.get());
    }
}
