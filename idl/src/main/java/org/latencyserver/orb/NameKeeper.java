package org.latencyserver.orb;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.launch.agent.PeriodicAgent;
import org.latencyserver.launch.agent.PeriodicDeadline;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;
import org.omg.CosNaming.NamingContextHelper;
import org.omg.CosNaming.NamingContextPackage.NotFound;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one name (or several) bound to one object in a naming service, so that a naming service
 * that was restarted (even after {@code kill -9}, with its bindings lost) finds the object again.
 * With several names (a partition's server: its own name, its index ranges, its client nodes), the
 * first is checked and all are bound again when it is lost, so a check costs one call however many
 * names there are.
 *
 * <p>{@link #bind} binds the name once, failing at once when the naming service cannot be
 * reached (a launcher refuses to start then). From then on a daemon thread checks every
 * {@code checkIntervalMillis} that the name still resolves to this object, and rebinds it when
 * the naming service is unreachable, the name is unbound, or it is bound to anything else: another
 * object is replaced by a rebind; a naming context put in its place (which a rebind cannot replace:
 * CosNaming refuses to rebind an object over a context) is unbound first. Every such repair of a
 * name bound to something else is counted ({@link #repairs()}). Each
 * check turns the naming service's corbaloc/IOR into a fresh reference: a restarted naming
 * service is a new process, and the old reference's connection died with the old one.
 *
 * <p>Logs once when the binding is lost and once when it is restored, not on every attempt.
 *
 * <p>Thread-safety: all checks run on the keeper's own thread; {@link #close} from any thread.
 * A check can take as long as the ORB's reply time-out when the naming service hangs; it delays
 * only the next check.
 */
public final class NameKeeper implements AutoCloseable {

    /** How often the launchers check their binding. */
    public static final long DEFAULT_CHECK_INTERVAL_MILLIS = 2_000;

    /** What a launcher tells the user to do when the first bind fails (both launchers take {@code --naming}). */
    public static final String WHAT_TO_DO = "start the naming service first (./latency naming-service), correct --naming, "
        + "or leave --naming out and give clients the IOR file";

    private static final Logger LOG = LoggerFactory.getLogger(NameKeeper.class);
    /** How long close waits for a check under way. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(2);

    private final ORB orb;
    private final String naming;
    private final String name;
    private final List<String> names;
    private final org.omg.CORBA.Object reference;
    /** The keeper's own thread, a {@link PeriodicAgent} checking with a fixed delay. */
    private final AgentRunner checker;
    /** Why the binding was lost, or null while it holds. Touched only on the checker thread. */
    private String lostBecause;
    /** Repairs of the name found bound to something else (another object or a context). */
    private final AtomicLong repairs = new AtomicLong();
    /** Whether a name found bound to another object is bound back to this one; false for a pair's primary. */
    private final boolean replaceOthers;
    /** Told when a check sent at the given {@link System#nanoTime} found the name bound to this object. */
    private final java.util.function.LongConsumer confirmed;

    private NameKeeper(final ORB orb, final String naming, final List<String> names, final org.omg.CORBA.Object reference,
                       final long checkIntervalMillis, final Yielding yielding) {
        this.replaceOthers = yielding == null;
        this.confirmed = yielding == null ? started -> { } : yielding.confirmed();
        this.orb = orb;
        this.naming = naming;
        this.name = names.get(0);
        this.names = List.copyOf(names);
        this.reference = reference;
        final long checkNanos = TimeUnit.MILLISECONDS.toNanos(checkIntervalMillis);
        final String role = "name-keeper " + name;
        this.checker = new AgentRunner(PeriodicAgent.named(role)
            .duty(PeriodicDeadline.Kind.FIXED_DELAY, checkNanos, checkNanos, this::checkAndRepair)
            .interruptOnClose()
            .build(), NoIdleStrategy.INSTANCE, new DistinctErrorLog(role), System::nanoTime, CLOSE_WAIT);
    }

    /**
     * Binds {@code name} to {@code reference} now and keeps it bound from then on.
     *
     * @param orb                 the ORB
     * @param naming              the naming service's reference (corbaloc/IOR), as the user gave it
     * @param name                the name, components separated by {@code /} (e.g. {@code peers/ws2})
     * @param reference           the object to keep bound
     * @param checkIntervalMillis how often to check the binding, {@code >= 1}
     * @return the running keeper; close it when the object stops serving
     * @throws References.ReferenceException when the first bind fails (naming service unreachable,
     *                                       or the name refused); nothing is left running then
     */
    public static NameKeeper bind(final ORB orb, final String naming, final String name, final org.omg.CORBA.Object reference,
                                  final long checkIntervalMillis) {
        return bind(orb, naming, List.of(name), reference, checkIntervalMillis);
    }

    /**
     * Binds every name to {@code reference} now and keeps them bound: the first is checked, and all
     * are bound again when it is lost.
     *
     * @param orb                 the ORB
     * @param naming              the naming service's reference (corbaloc/IOR)
     * @param names               the names, at least one; components separated by {@code /}
     * @param reference           the object to keep bound
     * @param checkIntervalMillis how often to check the first name, {@code >= 1}
     * @return the running keeper
     * @throws References.ReferenceException when a first bind fails; nothing is left running then
     */
    public static NameKeeper bind(final ORB orb, final String naming, final List<String> names, final org.omg.CORBA.Object reference,
                                  final long checkIntervalMillis) {
        return bind(orb, naming, names, reference, checkIntervalMillis, null);
    }

    /**
     * How a keeper of one server of a pair behaves: a name bound to another object is that server's (the other took over)
     * and is left alone, and every check that finds the name bound to this object is reported (the primary's lease).
     *
     * @param confirmed told, on the keeper's thread, the {@link System#nanoTime} at which a check was sent that found the
     *                  name bound to this object (the first bind's too)
     */
    public record Yielding(java.util.function.LongConsumer confirmed) {
    }

    /**
     * As {@link #bind(ORB, String, List, org.omg.CORBA.Object, long)}; with {@code yielding}, a name found bound to another
     * object is left so (logged once) and each check that finds it bound to this object is reported.
     *
     * @param yielding null to repair every binding, as the other {@code bind}s
     * @return the running keeper
     * @throws References.ReferenceException when a first bind fails; nothing is left running then
     */
    public static NameKeeper bind(final ORB orb, final String naming, final List<String> names, final org.omg.CORBA.Object reference,
                                  final long checkIntervalMillis, final Yielding yielding) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no name to keep bound");
        }
        final long firstBindNanos = System.nanoTime();
        bindAll(orb, naming, names, reference);
        if (yielding != null) {
            yielding.confirmed().accept(firstBindNanos);
        }
        final NameKeeper keeper = new NameKeeper(orb, naming, names, reference, checkIntervalMillis, yielding);
        keeper.checker.start();
        return keeper;
    }

    private void checkAndRepair() {
        final long checkStartedNanos = System.nanoTime();
        final Problem problem = problem();
        if (problem == null) {
            confirmed.accept(checkStartedNanos);
            lostBecause = null;
            return;
        }
        if (!replaceOthers && problem != Problem.NOT_BOUND) {
            // Yielding: only a name found unbound is bound again, and atomically (below). A name bound to another object
            // is the other server's; after a lookup that failed the name may be the other server's by now, and a
            // rebind would take it back over a binding made since.
            if (lostBecause == null) {
                lostBecause = problem.description();
                LOG.warn("'{}' in {}: {}; left so (a pair's server binds its name again only when it finds it unbound)", name,
                    naming, problem.description());
            }
            return;
        }
        if (lostBecause == null) {
            lostBecause = problem.description();
            LOG.warn("lost the binding of '{}' in {}: {}; rebinding until it holds again", name, naming, problem.description());
        }
        try {
            if (problem == Problem.CONTEXT_IN_PLACE) {
                // A rebind of an object over a context is refused by CosNaming (NotFound, not_object): unbind it first.
                final NamingContextExt root = NamingContextExtHelper.narrow(orb.string_to_object(naming));
                root.unbind(root.to_name(name));
            }
            if (replaceOthers) {
                bindAll(orb, naming, names, reference);
            } else {
                // CosNaming's bind refuses (AlreadyBound) when the other server bound the name since the lookup.
                References.bindIfUnbound(orb, naming, name, reference);
                bindAll(orb, naming, names.subList(1, names.size()), reference);
                confirmed.accept(checkStartedNanos);
            }
            if (problem.isReplacement()) {
                repairs.incrementAndGet();
            }
            LOG.info("'{}' is bound again in {}{}", name, naming, names.size() == 1 ? "" : " (with its " + (names.size() - 1)
                + " other names)");
            lostBecause = null;
        } catch (References.ReferenceException | SystemException | org.omg.CORBA.UserException stillLost) {
            // Logged once when lost; the next check tries again. Anything else is the agent runner's
            // to count (once logged per distinct error), and the keeper goes on.
        }
    }

    private static void bindAll(final ORB orb, final String naming, final List<String> names, final org.omg.CORBA.Object reference) {
        for (final String each : names) {
            References.bind(orb, naming, each, reference);
        }
    }

    /** @return why the name does not resolve to our object, or null when it does */
    private Problem problem() {
        try {
            final NamingContextExt context = NamingContextExtHelper.narrow(orb.string_to_object(naming));
            final org.omg.CORBA.Object bound = context.resolve_str(name);
            if (bound._is_equivalent(reference)) {
                return null;
            }
            return isNamingContext(bound) ? Problem.CONTEXT_IN_PLACE : Problem.ANOTHER_OBJECT;
        } catch (NotFound e) {
            return Problem.NOT_BOUND;
        } catch (SystemException e) {
            return Problem.unreachable("the naming service cannot be reached (" + References.describe(e) + ")");
        } catch (org.omg.CORBA.UserException | RuntimeException e) {
            return Problem.unreachable("looking it up failed (" + e + ")");
        }
    }

    private static boolean isNamingContext(final org.omg.CORBA.Object bound) {
        try {
            return bound._is_a(NamingContextHelper.id());
        } catch (SystemException e) {
            // An object that cannot answer is not the naming service's context (which answered the resolve).
            return false;
        }
    }

    /**
     * @return how many times the name was found bound to something else (another object, or a naming
     *         context in its place) and bound to this object again; thread-safe
     */
    public long repairs() {
        return repairs.get();
    }

    /** Stops checking; the name stays bound as it is. */
    @Override
    public void close() {
        checker.close();
    }

    /** Why the name does not resolve to the kept object. */
    private record Problem(String description, Kind kind) {
        static final Problem NOT_BOUND = new Problem("the name is not bound (was the naming service restarted?)", Kind.NOT_BOUND);
        static final Problem ANOTHER_OBJECT = new Problem("it is bound to another object", Kind.REPLACED);
        static final Problem CONTEXT_IN_PLACE = new Problem("a naming context is bound in its place", Kind.REPLACED);

        static Problem unreachable(final String description) {
            return new Problem(description, Kind.UNREACHABLE);
        }

        /** @return whether the name was bound to something else (a repair, counted), not lost */
        boolean isReplacement() {
            return kind == Kind.REPLACED;
        }

        enum Kind { NOT_BOUND, REPLACED, UNREACHABLE }
    }
}
