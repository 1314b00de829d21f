package org.latencyserver.server.launch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.latencyserver.server.naming.NamingOperation;
import org.latencyserver.server.naming.NamingWritePolicy;
import org.latencyserver.server.security.Caller;
import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.NO_PERMISSION;
import org.omg.CosNaming.Binding;
import org.omg.CosNaming.BindingIteratorHolder;
import org.omg.CosNaming.BindingListHolder;
import org.omg.CosNaming.BindingType;
import org.omg.CosNaming.NameComponent;
import org.omg.CosNaming.NamingContext;
import org.omg.CosNaming.NamingContextExtHelper;
import org.omg.CosNaming.NamingContextHelper;
import org.omg.PortableServer.POA;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, for each {@link GuardedNamingContext} call that changes bindings, whether its caller may:
 * works out the absolute names the call changes (the context's paths from the root, found by walking
 * the contexts, plus the name given), asks the {@link NamingWritePolicy}, and refuses with
 * {@code NO_PERMISSION} (minor code {@link NamingWritePolicy.RefusalKind#minor()}, message saying
 * what and why). Refusals are counted by kind ({@link #refusals()}) and logged: the first of each
 * kind at once, then at most one line a kind every {@value #LOG_INTERVAL_SECONDS} s, with the
 * count so far. Changes made are counted by operation ({@link #writes()}). Without a policy (binds
 * open to any caller) it refuses nothing and only counts.
 *
 * <p>Thread-safe. A context's paths are found anew on each change (a walk of the contexts, through
 * the naming service's own reads): changes are rare, lookups are not slowed.
 */
final class NamingWriteGuard {

    /** How often a refusal of one kind is logged at most. */
    static final long LOG_INTERVAL_SECONDS = 60;

    private static final Logger LOG = LoggerFactory.getLogger(NamingWriteGuard.class);
    /** How deep the walk for a context's paths goes: deeper contexts count as bound nowhere reachable. */
    private static final int MAX_DEPTH = 16;
    private static final int LIST_LIMIT = 100_000;
    /** Set while a checked call runs: the calls JacORB makes on its behalf (compound names) are not checked again. */
    private static final ThreadLocal<Boolean> AUTHORIZED = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private final POA namingPoa;
    private final byte[] rootId;
    private final NamingContext root;
    private final NamingWritePolicy policy;
    private final Supplier<Caller> callers;
    private final LongSupplier nanoClock;
    private final Map<NamingWritePolicy.RefusalKind, AtomicLong> refusals = new EnumMap<>(NamingWritePolicy.RefusalKind.class);
    private final Map<NamingWritePolicy.RefusalKind, AtomicLong> lastLoggedNanos = new EnumMap<>(NamingWritePolicy.RefusalKind.class);
    private final Map<NamingOperation, AtomicLong> writes = new EnumMap<>(NamingOperation.class);

    /**
     * @param namingPoa the POA of the naming contexts
     * @param rootId    the root context's object id
     * @param policy    who may change which names; null: anyone may change any (nothing is checked, changes are counted)
     * @param callers   the caller of the request the current thread serves
     * @param nanoClock {@link System#nanoTime()}, or a test's clock
     */
    NamingWriteGuard(final POA namingPoa, final byte[] rootId, final NamingWritePolicy policy, final Supplier<Caller> callers,
                     final LongSupplier nanoClock) {
        this.namingPoa = namingPoa;
        this.rootId = rootId.clone();
        try {
            this.root = NamingContextExtHelper.unchecked_narrow(
                namingPoa.create_reference_with_id(rootId, NamingContextExtHelper.id()));
        } catch (org.omg.PortableServer.POAPackage.WrongPolicy e) {
            throw new IllegalStateException("the naming POA cannot make the root context's reference: " + e, e);
        }
        this.policy = policy;
        this.callers = callers;
        this.nanoClock = nanoClock;
        for (final NamingWritePolicy.RefusalKind kind : NamingWritePolicy.RefusalKind.values()) {
            refusals.put(kind, new AtomicLong());
            lastLoggedNanos.put(kind, new AtomicLong(Long.MIN_VALUE));
        }
        for (final NamingOperation operation : NamingOperation.values()) {
            writes.put(operation, new AtomicLong());
        }
    }

    /**
     * Checks a change; call {@link #made} once it is made, and {@link #leave} with the result in any case.
     *
     * @param operation the naming operation
     * @param contextId the object id of the context called
     * @param name      the name given, or null for {@code destroy} and {@code new_context}
     * @return whether this call is the outermost checked one on this thread (pass it to {@link #leave})
     * @throws NO_PERMISSION when the caller may not
     */
    boolean authorize(final NamingOperation operation, final byte[] contextId, final NameComponent[] name) {
        if (AUTHORIZED.get()) {
            return false;
        }
        if (policy == null) {
            AUTHORIZED.set(Boolean.TRUE);
            return true;
        }
        final List<List<String>> names = new ArrayList<>();
        if (operation != NamingOperation.NEW_CONTEXT) {
            for (final List<String> path : pathsOf(contextId)) {
                final List<String> absolute = new ArrayList<>(path);
                if (name != null) {
                    for (final NameComponent component : name) {
                        absolute.add(text(component));
                    }
                }
                names.add(absolute);
            }
        }
        final Optional<NamingWritePolicy.Refusal> refusal = policy.refusal(callers.get(), operation.word(), names);
        if (refusal.isPresent()) {
            throw refuse(refusal.get());
        }
        AUTHORIZED.set(Boolean.TRUE);
        return true;
    }

    /**
     * Counts a change made.
     *
     * @param operation the naming operation
     * @param outermost what {@link #authorize} returned: the calls JacORB makes on a checked call's behalf are not counted again
     */
    void made(final NamingOperation operation, final boolean outermost) {
        if (outermost) {
            writes.get(operation).incrementAndGet();
        }
    }

    /** @return the changes made so far, by operation (every operation, zero included) */
    Map<NamingOperation, Long> writes() {
        final Map<NamingOperation, Long> counts = new EnumMap<>(NamingOperation.class);
        writes.forEach((operation, count) -> counts.put(operation, count.get()));
        return counts;
    }

    /** @param outermost what {@link #authorize} returned */
    void leave(final boolean outermost) {
        if (outermost) {
            AUTHORIZED.set(Boolean.FALSE);
        }
    }

    /** @return the refusals so far, by kind (every kind, zero included) */
    Map<NamingWritePolicy.RefusalKind, Long> refusals() {
        final Map<NamingWritePolicy.RefusalKind, Long> counts = new EnumMap<>(NamingWritePolicy.RefusalKind.class);
        refusals.forEach((kind, count) -> counts.put(kind, count.get()));
        return counts;
    }

    private NO_PERMISSION refuse(final NamingWritePolicy.Refusal refusal) {
        final long count = refusals.get(refusal.kind()).incrementAndGet();
        final long now = nanoClock.getAsLong();
        final AtomicLong last = lastLoggedNanos.get(refusal.kind());
        final long previous = last.get();
        if ((previous == Long.MIN_VALUE || now - previous >= LOG_INTERVAL_SECONDS * 1_000_000_000L)
            && last.compareAndSet(previous, now)) {
            LOG.warn("naming service: {} (refusals of this kind so far: {}; logged at most once a minute)", refusal.message(),
                count);
        }
        return new NO_PERMISSION("naming service: " + refusal.message(), refusal.kind().minor(), CompletionStatus.COMPLETED_NO);
    }

    /** @return the absolute paths the context is bound at, as components; the root's is the empty path; none when bound nowhere */
    private List<List<String>> pathsOf(final byte[] contextId) {
        if (Arrays.equals(contextId, rootId)) {
            return List.of(List.of());
        }
        final List<List<String>> paths = new ArrayList<>();
        final Set<String> visited = new HashSet<>();
        visited.add(key(rootId));
        final Deque<Step> steps = new ArrayDeque<>();
        steps.add(new Step(root, List.of()));
        while (!steps.isEmpty()) {
            final Step step = steps.poll();
            for (final Binding binding : bindingsOf(step.context())) {
                if (binding.binding_type != BindingType.ncontext || binding.binding_name.length != 1) {
                    continue;
                }
                final List<String> path = new ArrayList<>(step.path());
                path.add(text(binding.binding_name[0]));
                final org.omg.CORBA.Object child;
                final byte[] childId;
                try {
                    child = step.context().resolve(binding.binding_name);
                    childId = namingPoa.reference_to_id(child);
                } catch (org.omg.CORBA.UserException | org.omg.CORBA.SystemException e) {
                    continue; // unbound meanwhile, or a context of another naming service: not ours to follow
                }
                if (Arrays.equals(childId, contextId)) {
                    paths.add(List.copyOf(path));
                }
                if (visited.add(key(childId)) && path.size() < MAX_DEPTH) {
                    steps.add(new Step(NamingContextHelper.unchecked_narrow(child), path));
                }
            }
        }
        return paths;
    }

    private static Binding[] bindingsOf(final NamingContext context) {
        final BindingListHolder list = new BindingListHolder();
        final BindingIteratorHolder rest = new BindingIteratorHolder();
        try {
            context.list(LIST_LIMIT, list, rest);
        } catch (org.omg.CORBA.SystemException e) {
            return new Binding[0];
        }
        if (rest.value != null) {
            rest.value.destroy();
        }
        return list.value;
    }

    /** @return a name component as one path element: {@code id}, or {@code id.kind} when it has a kind */
    private static String text(final NameComponent component) {
        return component.kind == null || component.kind.isEmpty() ? component.id : component.id + "." + component.kind;
    }

    private static String key(final byte[] id) {
        return new String(id, StandardCharsets.ISO_8859_1);
    }

    private record Step(NamingContext context, List<String> path) {
    }
}
