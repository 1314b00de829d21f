package org.latencyserver.orb;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;
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
 * the naming service is unreachable, the name is unbound, or it is bound to another object. Each
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

    private final ORB orb;
    private final String naming;
    private final String name;
    private final List<String> names;
    private final org.omg.CORBA.Object reference;
    private final ScheduledExecutorService checker;
    /** Why the binding was lost, or null while it holds. Touched only on the checker thread. */
    private String lostBecause;

    private NameKeeper(final ORB orb, final String naming, final List<String> names, final org.omg.CORBA.Object reference) {
        this.orb = orb;
        this.naming = naming;
        this.name = names.get(0);
        this.names = List.copyOf(names);
        this.reference = reference;
        this.checker = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread thread = new Thread(r, "name-keeper " + name);
            thread.setDaemon(true);
            return thread;
        });
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
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no name to keep bound");
        }
        bindAll(orb, naming, names, reference);
        final NameKeeper keeper = new NameKeeper(orb, naming, names, reference);
        keeper.checker.scheduleWithFixedDelay(keeper::checkAndRepair, checkIntervalMillis, checkIntervalMillis,
            TimeUnit.MILLISECONDS);
        return keeper;
    }

    private void checkAndRepair() {
        final String problem = problem();
        if (problem == null) {
            return;
        }
        if (lostBecause == null) {
            lostBecause = problem;
            LOG.warn("lost the binding of '{}' in {}: {}; rebinding until it holds again", name, naming, problem);
        }
        try {
            bindAll(orb, naming, names, reference);
            LOG.info("'{}' is bound again in {}{}", name, naming, names.size() == 1 ? "" : " (with its " + (names.size() - 1)
                + " other names)");
            lostBecause = null;
        } catch (References.ReferenceException | SystemException stillLost) {
            // Logged once when lost; the next check tries again.
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again: keep the keeper alive whatever happens.
            LOG.warn("rebinding '{}' in {} failed unexpectedly: {}", name, naming, e.toString());
        }
    }

    private static void bindAll(final ORB orb, final String naming, final List<String> names, final org.omg.CORBA.Object reference) {
        for (final String each : names) {
            References.bind(orb, naming, each, reference);
        }
    }

    /** @return why the name does not resolve to our object, or null when it does */
    private String problem() {
        try {
            final NamingContextExt context = NamingContextExtHelper.narrow(orb.string_to_object(naming));
            final org.omg.CORBA.Object bound = context.resolve_str(name);
            return bound._is_equivalent(reference) ? null : "it is bound to another object";
        } catch (NotFound e) {
            return "the name is not bound (was the naming service restarted?)";
        } catch (SystemException e) {
            return "the naming service cannot be reached (" + References.describe(e) + ")";
        } catch (org.omg.CORBA.UserException | RuntimeException e) {
            return "looking it up failed (" + e + ")";
        }
    }

    /** Stops checking; the name stays bound as it is. */
    @Override
    public void close() {
        checker.shutdownNow();
        try {
            checker.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
