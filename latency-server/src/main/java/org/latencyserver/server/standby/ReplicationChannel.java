package org.latencyserver.server.standby;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.blocks.MessageDispatcher;
import org.jgroups.blocks.RequestOptions;
import org.jgroups.blocks.ResponseMode;
import org.jgroups.util.Rsp;
import org.jgroups.util.RspList;
import org.jgroups.util.Util;
import org.latencyserver.server.config.StandbySettings;

/**
 * The pair's JGroups channel: membership (the view), failure detection, and records carried to the
 * other member with its acknowledgement. The stack is the resource {@code standby-jgroups.xml}
 * with this server's {@code server.standby} addresses filled in: TCP to the two configured
 * addresses only.
 *
 * <p>The view's coordinator (the oldest member) is the primary; the other member is the standby.
 *
 * <p>Thread-safety: {@link #send} from one thread at a time (the sender's); {@link Handler}'s calls
 * come on JGroups' threads: a view at a time, and one sender's messages in the order sent.
 */
public final class ReplicationChannel implements AutoCloseable {

    /** The stack, a resource beside this class. */
    static final String STACK_RESOURCE = "standby-jgroups.xml";

    /** What the channel hands up. */
    public interface Handler {
        /**
         * The records the primary sent; return once they are applied (the primary's send waits for it).
         *
         * @throws Exception when they could not be applied: the primary's send fails and it sends them again
         */
        void records(byte[] records) throws Exception;

        /**
         * A new view.
         *
         * @param coordinator whether this member is the view's coordinator (the primary)
         * @param members     how many members the view has (2: a pair, 1: alone)
         * @param newMembers  whether a member joined that was not in the previous view
         */
        void viewChanged(boolean coordinator, int members, boolean newMembers);
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReplicationChannel.class);

    private final JChannel channel;
    /** The reason of the last failed send logged, null after a send succeeded; the sending thread's (one at a time). */
    private volatile String lastFailure;
    private final MessageDispatcher dispatcher;
    private final String clusterName;
    private volatile View view;
    /** The test's cut, while one is in place; guarded by {@code this}. */
    private org.jgroups.protocols.DISCARD cut;

    /**
     * Builds the channel (not yet connected).
     *
     * @param settings    the pair's addresses
     * @param clusterName the pair's name, the same on both servers (from the registered name)
     * @param handler     what the channel hands up
     * @throws IOException when the stack cannot be built (a bad address, the resource missing)
     */
    public ReplicationChannel(final StandbySettings settings, final String clusterName, final Handler handler) throws IOException {
        this.clusterName = clusterName;
        try {
            this.channel = new JChannel(stack(settings));
        } catch (Exception e) {
            throw new IOException("the standby's JGroups stack could not be built for " + settings.listenHost() + ":"
                + settings.listenPort() + ": " + e.getMessage(), e);
        }
        channel.name(settings.listenHost() + ":" + settings.listenPort());
        this.dispatcher = new MessageDispatcher(channel, message -> {
            handler.records(java.util.Arrays.copyOfRange(message.getArray(), message.getOffset(),
                message.getOffset() + message.getLength()));
            return Boolean.TRUE;
        });
        dispatcher.setReceiver(new Receiver() {
            @Override
            public void viewAccepted(final View next) {
                final View before = view;
                view = next;
                LOG.info("the pair's view {}: {}", next.getViewId(), next.getMembers().stream()
                    .map(member -> member + " (" + (member instanceof org.jgroups.util.UUID id ? id.toStringLong() : "?") + ")")
                    .collect(java.util.stream.Collectors.joining(", ")));
                final boolean newMembers = before == null ? next.size() > 1
                    : !View.newMembers(before, next).isEmpty();
                handler.viewChanged(next.getCoord().equals(channel.getAddress()), next.size(), newMembers);
            }
        });
    }

    /** @return the stack's XML with the addresses filled in */
    static InputStream stack(final StandbySettings settings) throws IOException {
        try (InputStream in = ReplicationChannel.class.getResourceAsStream(STACK_RESOURCE)) {
            if (in == null) {
                throw new IOException("the resource " + STACK_RESOURCE + " is missing");
            }
            final String xml = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                .replace("@LISTEN_HOST@", settings.listenHost())
                .replace("@LISTEN_PORT@", Integer.toString(settings.listenPort()))
                .replace("@INITIAL_HOSTS@", settings.listenHost() + "[" + settings.listenPort() + "]," + settings.peerHost()
                    + "[" + settings.peerPort() + "]");
            return new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Joins the pair: finds the peer if it runs (within JGroups' join time-out, 1 s) and becomes the
     * standby, or, alone, the primary. The first view is handed up before this returns.
     *
     * @throws IOException when the channel cannot connect (its port taken, say)
     */
    public void connect() throws IOException {
        try {
            channel.connect(clusterName);
        } catch (Exception e) {
            channel.close();
            throw new IOException("the standby channel could not connect as " + channel.name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Leaves the pair's view and joins it again (a member that found itself alone but has reason to believe the other
     * runs). The views in between are handed up as any.
     *
     * @throws IOException when the channel cannot connect again
     */
    public void rejoin() throws IOException {
        channel.disconnect();
        view = null;
        try {
            channel.connect(clusterName);
        } catch (Exception e) {
            channel.close();
            throw new IOException("the standby channel could not connect again as " + channel.name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Leaves the view (if in one) and joins again; stays in the view only when another member is in it.
     *
     * @return true when the view this joined has another member; false when it was alone (and left again)
     * @throws IOException when the channel cannot connect (it stays usable for the next attempt)
     */
    public boolean joinOthers() throws IOException {
        channel.disconnect();
        view = null;
        try {
            channel.connect(clusterName);
        } catch (Exception e) {
            throw new IOException("the standby channel could not connect again as " + channel.name() + ": " + e.getMessage(), e);
        }
        if (members() > 1) {
            return true;
        }
        disconnect();
        return false;
    }

    /** Leaves the view without closing the channel (the other member sees this one leave). */
    public void disconnect() {
        channel.disconnect();
        view = null;
    }

    /** @return whether this member is the view's coordinator: the primary */
    public boolean coordinator() {
        final View now = view;
        return now != null && now.getCoord().equals(channel.getAddress());
    }

    /** @return the members of the view now (0 before connecting) */
    public int members() {
        final View now = view;
        return now == null ? 0 : now.size();
    }

    /**
     * Sends records to every other member and waits for each to have applied them.
     *
     * @param records       the records ({@code ReplicaRecords}' lines)
     * @param timeoutMillis how long to wait for the acknowledgements
     * @return true when every other member acknowledged them; false when there is none (a standby that has just left:
     *         nothing is protected), or one failed, did not answer in time, or left
     */
    public boolean send(final byte[] records, final long timeoutMillis) {
        final View now = view;
        if (now == null) {
            return false;
        }
        final List<Address> others = new ArrayList<>(now.getMembers());
        others.remove(channel.getAddress());
        if (others.isEmpty()) {
            return false;
        }
        try {
            // Not looped back: this member's own handler would refuse it (a primary takes no records).
            final Message message = new BytesMessage(null, records).setFlag(Message.TransientFlag.DONT_LOOPBACK);
            final RspList<Object> answers = dispatcher.castMessage(others, message,
                new RequestOptions(ResponseMode.GET_ALL, timeoutMillis));
            if (answers.size() < others.size()) {
                return false;
            }
            for (final Rsp<Object> answer : answers.values()) {
                if (!answer.wasReceived() || answer.hasException() || answer.wasSuspected() || answer.wasUnreachable()
                    || !Boolean.TRUE.equals(answer.getValue())) {
                    noteFailure(answer.hasException() ? "the standby refused: " + answer.getException().getMessage()
                        : answer.wasSuspected() ? "the standby is suspected" : answer.wasUnreachable() ? "the standby is unreachable"
                        : !answer.wasReceived() ? "no answer within " + timeoutMillis + " ms" : "answered " + answer.getValue());
                    return false;
                }
            }
            lastFailure = null;
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /** Logs a failed send once per distinct reason (a failing standby is sent to again every flush interval). */
    private void noteFailure(final String reason) {
        if (!reason.equals(lastFailure)) {
            lastFailure = reason;
            LOG.warn("a send to the standby failed (the writes waiting for it are answered unprotected): {}", reason);
        }
    }

    /** Leaves the pair: the other member sees a view without this one at once. */
    @Override
    public void close() {
        try {
            dispatcher.close();
        } catch (IOException e) {
            // the channel is closed next either way
        }
        channel.close();
    }

    /**
     * For tests: drops every message to and from the transport (true), as a cut link would — the failure detectors'
     * heartbeats included, so each side soon sees the other gone — or lets them through again (false), after which the
     * two views merge.
     */
    public synchronized void isolateForTest(final boolean isolated) {
        try {
            if (isolated && cut == null) {
                cut = new org.jgroups.protocols.DISCARD().discardAll(true);
                channel.getProtocolStack().insertProtocol(cut, org.jgroups.stack.ProtocolStack.Position.ABOVE,
                    org.jgroups.protocols.TCP.class);
            } else if (!isolated && cut != null) {
                channel.getProtocolStack().removeProtocol(cut);
                cut = null;
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not " + (isolated ? "cut" : "heal") + " the channel: " + e, e);
        }
    }

    /**
     * Stops this member as a crash would: it sends nothing more, no leave either; the other member
     * finds it gone by failure detection. For tests of a takeover in one JVM.
     */
    public void closeAbruptly() {
        try {
            Util.shutdown(channel);
        } catch (Exception e) {
            channel.close();
        }
    }
}
