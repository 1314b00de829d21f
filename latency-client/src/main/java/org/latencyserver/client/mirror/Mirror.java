package org.latencyserver.client.mirror;

import java.io.IOException;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.concurrent.CompletableFuture;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.idl.latency.EstimateListenerHelper;
import org.latencyserver.idl.latency.EstimateListenerPOA;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.RunningComponent;
import org.latencyserver.mirror.EstimateMirrorWriter;
import org.latencyserver.orb.CallbackReach;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.omg.CORBA.ORB;

/**
 * A running host-local mirror: the memory-mapped file and its writer thread, the feed that reads
 * and subscribes to the server, and the ORB the server pushes estimate changes to. Start one with
 * {@link #launch(MirrorContext)}, in a test's JVM as in {@link MirrorMain}'s; it serves once
 * {@link #awaitFirstContact()} returns; stop it with {@link #close()}.
 *
 * <p>Thread-safe.
 */
public final class Mirror extends RunningComponent {
    /** How often {@link #awaitFirstContact()} looks, in milliseconds. */
    private static final long FIRST_CONTACT_POLL_MILLIS = 20;

    private final MirrorContext context;
    private final MirrorWriterLoop writer;
    private final ORB orb;
    private MirrorFeed feed;

    private Mirror(MirrorContext context, MirrorWriterLoop writer, ORB orb) {
        this.context = context;
        this.writer = writer;
        this.orb = orb;
    }

    /**
     * Validates the context, creates the mirror file and starts following the server (whether or
     * not it answers yet).
     *
     * @param context what to mirror and where
     * @return the running mirror
     * @throws IllegalArgumentException when the context is not valid (naming the setting)
     * @throws IOException naming the file when it cannot be created
     * @throws CallbackReach.Unreachable when the callback address is loopback and the server is not (the file is left as it was)
     * @throws UnusableGroup naming the group when the context's group does not exist on this host or cannot be given to
     *     the file (the file is left as it was)
     */
    public static Mirror launch(MirrorContext context) throws IOException {
        context.validate();
        // Before anything listens or is created: a group that does not exist is a mistake in the command line.
        final GroupPrincipal group = groupOf(context);
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.withListenerTuning(OrbSupport.properties(context.listenHost(),
            context.listenPort(), MirrorContext.REPLY_TIMEOUT_MILLIS)));
        final EstimateMirrorWriter mirrorFile;
        try {
            // Before the file is replaced, the callback object listens and any call: a server elsewhere cannot push to loopback.
            CallbackReach.requireReachable(orb, context.serverReference(), context.naming(), context.listenHost(), "this mirror's",
                "--host");
            try {
                mirrorFile = EstimateMirrorWriter.create(context.file(), context.heartbeatMillis(), group);
            } catch (EstimateMirrorWriter.GroupNotApplied e) {
                throw new UnusableGroup("--group " + context.group() + ": " + e.getMessage(), e);
            } catch (IOException | RuntimeException e) {
                throw new IOException("cannot create " + context.file() + ": " + e.getMessage(), e);
            }
        } catch (IOException | RuntimeException e) {
            orb.shutdown(false);
            throw e;
        }
        final MirrorWriterLoop writer = new MirrorWriterLoop(mirrorFile, context.heartbeatMillis(), System::currentTimeMillis);
        writer.start();
        return startedOrClosed(new Mirror(context, writer, orb), Mirror::start);
    }

    private static GroupPrincipal groupOf(final MirrorContext context) throws UnusableGroup {
        if (context.group() == null) {
            return null;
        }
        try {
            return context.file().getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName(context.group());
        } catch (UserPrincipalNotFoundException e) {
            throw new UnusableGroup("--group " + context.group() + ": no such group on this host (a group name or a numeric"
                + " group id, as getent group lists them)", e);
        } catch (IOException | UnsupportedOperationException e) {
            throw new UnusableGroup("--group " + context.group() + ": groups cannot be looked up for " + context.file() + ": "
                + e.getMessage(), e);
        }
    }

    private synchronized void start() {
        final EstimateListener listener = EstimateListenerHelper.narrow(
            OrbSupport.serveOnRootPoa(orb, new Listener(writer), "the mirror's ORB cannot serve its callback object"));
        feed = new MirrorFeed(
            () -> LatencyServiceHelper.narrow(References.resolveServer(orb, context.serverReference(), context.naming(),
                context.nodes())),
            listener, context.connections(), context.pollMillis(), context.refreshMillis(), writer::submit,
            System::currentTimeMillis);
        OrbSupport.runInBackground(orb, "mirror-orb");
        feed.start();
    }

    /**
     * Waits until the server has answered once with every connection followed: from then on the
     * mirror serves. While the server does not answer it keeps trying (and waiting).
     *
     * @throws UnknownConnections when the server lacks a connection the context follows; the mirror
     *         then follows nothing (close it)
     * @throws InterruptedException when interrupted
     */
    public void awaitFirstContact() throws UnknownConnections, InterruptedException {
        final MirrorFeed started = feed();
        while (started.firstContact() == MirrorFeed.FirstContact.PENDING) {
            Thread.sleep(FIRST_CONTACT_POLL_MILLIS);
        }
        if (started.firstContact() == MirrorFeed.FirstContact.UNKNOWN_CONNECTIONS) {
            throw new UnknownConnections(started.firstContactProblem());
        }
    }

    /**
     * @return completed, with why (naming the file), when the mirror's writer thread died: the file
     *         was truncated under it or a write failed with an {@link Error}. The file's heartbeat has
     *         stopped then and readers see the mirror dead; its owner should close it and, as
     *         {@link MirrorMain} does, end the process with a failure
     */
    public CompletableFuture<String> writerDeath() {
        return writer.death();
    }

    /** @return how many connections it mirrors (known after {@link #awaitFirstContact()}) */
    public int connectionCount() {
        return feed().followedCount();
    }

    /**
     * @return its ready file's content as {@code docs/ready-files.md} lists it: the port {@code callback} (its callback
     *         object's, where the server pushes), the file {@code mirror} and the fact {@code connections}
     */
    @Override
    public ReadyFile.Builder readyFile() {
        return ReadyFile.of(Component.MIRROR).port("callback", OrbSupport.listenPort(orb)).file("mirror", context.file())
            .fact("connections", connectionCount());
    }

    /**
     * Stops following the server (unsubscribing), the writer (the file stays, its heartbeat stops)
     * and the ORB.
     */
    @Override
    protected void stop() {
        try {
            if (feed != null) {
                feed.close();
            }
            writer.close();
        } finally {
            orb.shutdown(false);
        }
    }

    private synchronized MirrorFeed feed() {
        return feed;
    }

    /** The mirror file's group ({@code --group}) does not exist or cannot be given to the file; the message names it. */
    public static final class UnusableGroup extends IOException {
        private static final long serialVersionUID = 1L;

        UnusableGroup(final String message, final Exception cause) {
            super(message, cause);
        }
    }

    /** The server, at first contact, lacks a connection the mirror was asked to follow. */
    public static final class UnknownConnections extends Exception {
        private static final long serialVersionUID = 1L;

        UnknownConnections(final String problem) {
            super(problem);
        }
    }

    /** Pushed estimates go straight to the writer's queue (ORB thread; never blocks). */
    private static final class Listener extends EstimateListenerPOA {
        private final MirrorWriterLoop writer;

        Listener(final MirrorWriterLoop writer) {
            this.writer = writer;
        }

        @Override
        public void estimate_changed(final Estimate changed) {
            writer.submit(new MirrorCommand.Served(changed, System.nanoTime()));
        }
    }
}
