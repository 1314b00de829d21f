package org.latencyserver.emulator;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.latencyserver.launch.agent.Agent;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread serving the UDP sockets of many emulated agents: a {@link Selector} over their
 * non-blocking {@link DatagramChannel}s; each datagram that arrives is handed, on this thread, to
 * its agent's {@link ChannelTransport}, which decodes it, answers it and sends the answer before the
 * next datagram is read. This replaces a socket-reading thread per agent, so thousands of agents
 * cost one thread (or a few, one loop each).
 *
 * <p>Overload sheds stale requests rather than answering them late: when a socket holds several
 * datagrams from one requester (the loop fell behind by a poll interval or more: a machine short
 * of CPU), only the newest is answered and the older ones are counted as shed. A poller that asks
 * each agent once an interval has given up on the older ones already; answering them first would
 * make every answer late and keep the loop behind for good (congestion collapse).
 *
 * <p>The loop is an {@link Agent}: each round selects (its wait; the close wakes it with
 * {@link Selector#wakeup()}, never an interrupt, which would close the channel being read), runs the
 * queued tasks and serves the ready sockets. On its own thread as it ends, it closes every channel
 * still registered and the selector.
 *
 * <p>Thread-safety: the selector, its keys and the receive buffer belong to the loop's thread;
 * other threads act on them only through {@link #register} and {@link #closeChannel}, which queue
 * the work for that thread and wake it.
 */
final class UdpSelectorLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UdpSelectorLoop.class);
    /** The largest UDP payload, in bytes. */
    private static final int MAX_DATAGRAM_BYTES = 65_535;
    /** Datagrams read from one socket before the next ready socket gets its turn. */
    private static final int MAX_DATAGRAMS_PER_TURN = 16;

    private final Selector selector;
    /** How long close waits for the loop's thread. */
    private static final java.time.Duration CLOSE_WAIT = java.time.Duration.ofSeconds(5);

    private final String threadName;
    private final AgentRunner thread;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /** Owned by the loop's thread. */
    private final ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(MAX_DATAGRAM_BYTES);
    private final AtomicLong datagramsReceived = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong shed = new AtomicLong();
    /** The datagrams of one turn of one socket: the newest per requester, in arrival order. Owned by the loop's thread. */
    private final java.util.LinkedHashMap<SocketAddress, ByteBuffer> newestByRequester = new java.util.LinkedHashMap<>();

    /**
     * Opens the selector and starts the loop's thread.
     *
     * @param threadName the thread's name
     * @throws IOException when no selector can be opened
     */
    UdpSelectorLoop(String threadName) throws IOException {
        this.selector = Selector.open();
        this.threadName = threadName;
        this.thread = new AgentRunner(new SelectAgent(), NoIdleStrategy.INSTANCE,
            new org.latencyserver.launch.agent.DistinctErrorLog(threadName), System::nanoTime, CLOSE_WAIT);
        thread.start();
    }

    /**
     * Has the loop serve a bound, non-blocking channel from now on. Returns at once: a datagram that
     * arrives before the loop's thread has registered it waits in the socket's buffer.
     */
    void register(DatagramChannel channel, ChannelTransport transport) {
        submit(() -> {
            try {
                channel.register(selector, SelectionKey.OP_READ, transport);
            } catch (IOException e) {
                failures.incrementAndGet();
                LOG.warn("cannot serve {}: {}", transport.getListenAddress(), e.toString());
            }
        });
    }

    /**
     * Closes a channel the loop serves, on the loop's thread, and returns once its port is free again.
     *
     * @throws IOException when the channel cannot be closed
     */
    void closeChannel(DatagramChannel channel) throws IOException {
        if (!thread.running() || thread.onAgentThread()) {
            channel.close();
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        submit(() -> {
            try {
                channel.close();
                // The socket is released when its key leaves the selector: at the next selection.
                selector.selectNow();
                done.complete(null);
            } catch (IOException | RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            channel.close();
        } catch (ExecutionException e) {
            throw new IOException("cannot close " + channel + ": " + e.getCause(), e.getCause());
        }
    }

    /** @return datagrams read so far */
    long datagramsReceived() {
        return datagramsReceived.get();
    }

    /** @return requests not answered because a newer one from the same requester was waiting on the same socket */
    long shed() {
        return shed.get();
    }

    /** @return datagrams whose handling failed, and registrations that failed */
    long failures() {
        return failures.get();
    }

    private void submit(Runnable task) {
        tasks.add(task);
        selector.wakeup();
    }

    /** The loop's duty cycle. */
    private final class SelectAgent implements Agent {

        @Override
        public int doWork(final long nowNanos) {
            int workCount = 0;
            try {
                selector.select();
                for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
                    task.run();
                    workCount++;
                }
                var ready = selector.selectedKeys().iterator();
                while (ready.hasNext()) {
                    SelectionKey key = ready.next();
                    ready.remove();
                    if (key.isValid() && key.isReadable()) {
                        drain((DatagramChannel) key.channel(), (ChannelTransport) key.attachment());
                        workCount++;
                    }
                }
            } catch (IOException | ClosedSelectorException e) {
                if (thread.running()) {
                    LOG.error("the SNMP agents' socket loop {} stopped: {}", threadName, e.toString());
                }
                thread.requestStop(); // a broken selector stays broken
            }
            return workCount;
        }

        @Override
        public void onCloseRequested() {
            selector.wakeup();
        }

        /** The loop has ended: closes every channel still registered, then the selector. */
        @Override
        public void onClose() {
            try {
                for (SelectionKey key : selector.keys()) {
                    key.channel().close();
                }
                selector.close();
            } catch (IOException e) {
                LOG.debug("closing the socket loop {}: {}", threadName, e.toString());
            }
        }

        @Override
        public String roleName() {
            return threadName;
        }
    }

    private void drain(DatagramChannel channel, ChannelTransport transport) {
        newestByRequester.clear();
        for (int i = 0; i < MAX_DATAGRAMS_PER_TURN; i++) {
            receiveBuffer.clear();
            SocketAddress from;
            try {
                from = channel.receive(receiveBuffer);
            } catch (IOException e) {
                failures.incrementAndGet();
                LOG.debug("{}: receive failed: {}", transport.getListenAddress(), e.toString());
                break;
            }
            if (from == null) {
                break;
            }
            datagramsReceived.incrementAndGet();
            receiveBuffer.flip();
            ByteBuffer message = ByteBuffer.allocate(receiveBuffer.remaining());
            message.put(receiveBuffer).flip();
            // A later datagram of the same requester replaces the earlier one, which is shed.
            if (newestByRequester.remove(from) != null) {
                shed.incrementAndGet();
            }
            newestByRequester.put(from, message);
        }
        for (var request : newestByRequester.entrySet()) {
            try {
                transport.deliver((InetSocketAddress) request.getKey(), request.getValue());
            } catch (RuntimeException e) {
                // One bad datagram (garbage, a decoding bug) must not stop the other agents.
                failures.incrementAndGet();
                LOG.debug("{}: a datagram from {} could not be handled: {}", transport.getListenAddress(), request.getKey(),
                    e.toString());
            }
        }
    }

    /** Stops the thread, which then closes every channel still registered and the selector. */
    @Override
    public void close() {
        thread.close();
    }
}
