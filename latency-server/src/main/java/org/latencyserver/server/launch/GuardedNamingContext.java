package org.latencyserver.server.launch;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.jacorb.naming.NamingContextImpl;
import org.latencyserver.server.naming.NamingOperation;
import org.omg.CosNaming.NameComponent;
import org.omg.CosNaming.NamingContext;
import org.omg.CosNaming.NamingContextPackage.AlreadyBound;
import org.omg.CosNaming.NamingContextPackage.CannotProceed;
import org.omg.CosNaming.NamingContextPackage.InvalidName;
import org.omg.CosNaming.NamingContextPackage.NotEmpty;
import org.omg.CosNaming.NamingContextPackage.NotFound;

/**
 * A naming context of the naming service, whether it checks who binds or not: JacORB's
 * {@link NamingContextImpl}, whose operations that change bindings ({@code bind}, {@code rebind},
 * {@code bind_context}, {@code rebind_context}, {@code unbind}, {@code bind_new_context},
 * {@code destroy}, {@code new_context}) first ask the {@link NamingWriteGuard} and throw
 * {@code NO_PERMISSION} when it refuses, and tell it each change made (it counts them). Reads
 * ({@code resolve}, {@code list}, {@code resolve_str}, {@code to_name}, ...) are JacORB's, unchanged
 * and open to any caller.
 *
 * <p>Why a servant subclass and not a request interceptor: an interceptor sees the operation but
 * not its arguments ({@code ServerRequestInfo.arguments()} is available only to DSI servants, and
 * JacORB's naming contexts are static skeletons), and the decision needs the name. Why a subclass
 * and not a delegating servant: JacORB's {@code new_context} asks the POA for the id of the servant
 * it runs in ({@code servant_to_id(this)}), which only the registered servant has. Its bindings are
 * saved as a plain {@code NamingContextImpl} ({@link #toPlain()}), so the database files stay
 * JacORB's own.
 *
 * <p>Compound names ({@code peers/ws2} given to the root context) are checked whole, as the name
 * they change; JacORB then passes the rest on to the sub-context, in the same thread, where the
 * check is not repeated ({@link NamingWriteGuard#authorize}).
 *
 * <p>Thread-safety: as JacORB's naming context; the guard is thread-safe.
 */
final class GuardedNamingContext extends NamingContextImpl {

    private static final long serialVersionUID = 1L;
    private static final List<Field> STATE = persistentState();

    private final transient byte[] objectId;
    private final transient NamingWriteGuard guard;

    private GuardedNamingContext(final byte[] objectId, final NamingWriteGuard guard) {
        this.objectId = objectId.clone();
        this.guard = guard;
    }

    /**
     * @param plain    a naming context as read from its file (or new)
     * @param objectId its object id in the naming POA
     * @param guard    who decides
     * @return a guarded context with {@code plain}'s bindings
     */
    static GuardedNamingContext guarding(final NamingContextImpl plain, final byte[] objectId, final NamingWriteGuard guard) {
        final GuardedNamingContext guarded = new GuardedNamingContext(objectId, guard);
        copyState(plain, guarded);
        return guarded;
    }

    /** @return a plain JacORB naming context with this one's bindings, to be saved */
    NamingContextImpl toPlain() {
        final NamingContextImpl plain = new NamingContextImpl();
        copyState(this, plain);
        return plain;
    }

    @Override
    public void bind(final NameComponent[] n, final org.omg.CORBA.Object obj)
        throws NotFound, CannotProceed, InvalidName, AlreadyBound {
        final boolean outermost = guard.authorize(NamingOperation.BIND, objectId, n);
        try {
            super.bind(n, obj);
            guard.made(NamingOperation.BIND, outermost);
        } finally {
            guard.leave(outermost);
        }
    }

    @Override
    public void rebind(final NameComponent[] n, final org.omg.CORBA.Object obj) throws NotFound, CannotProceed, InvalidName {
        final boolean outermost = guard.authorize(NamingOperation.REBIND, objectId, n);
        try {
            super.rebind(n, obj);
            guard.made(NamingOperation.REBIND, outermost);
        } finally {
            guard.leave(outermost);
        }
    }

    @Override
    public void bind_context(final NameComponent[] n, final NamingContext obj)
        throws NotFound, CannotProceed, InvalidName, AlreadyBound {
        final boolean outermost = guard.authorize(NamingOperation.BIND_CONTEXT, objectId, n);
        try {
            super.bind_context(n, obj);
            guard.made(NamingOperation.BIND_CONTEXT, outermost);
        } finally {
            guard.leave(outermost);
        }
    }

    @Override
    public void rebind_context(final NameComponent[] n, final NamingContext obj) throws NotFound, CannotProceed, InvalidName {
        final boolean outermost = guard.authorize(NamingOperation.REBIND_CONTEXT, objectId, n);
        try {
            super.rebind_context(n, obj);
            guard.made(NamingOperation.REBIND_CONTEXT, outermost);
        } finally {
            guard.leave(outermost);
        }
    }

    @Override
    public void unbind(final NameComponent[] n) throws NotFound, CannotProceed, InvalidName {
        final boolean outermost = guard.authorize(NamingOperation.UNBIND, objectId, n);
        try {
            super.unbind(n);
            guard.made(NamingOperation.UNBIND, outermost);
        } finally {
            guard.leave(outermost);
        }
    }

    @Override
    public NamingContext bind_new_context(final NameComponent[] n) throws NotFound, CannotProceed, InvalidName, AlreadyBound {
        final boolean outermost = guard.authorize(NamingOperation.BIND_NEW_CONTEXT, objectId, n);
        try {
            final NamingContext made = super.bind_new_context(n);
            guard.made(NamingOperation.BIND_NEW_CONTEXT, outermost);
            return made;
        } finally {
            guard.leave(outermost);
        }
    }

    @Override
    public void destroy() throws NotEmpty {
        final boolean outermost = guard.authorize(NamingOperation.DESTROY, objectId, null);
        try {
            super.destroy();
            guard.made(NamingOperation.DESTROY, outermost);
        } finally {
            guard.leave(outermost);
        }
    }

    @Override
    public NamingContext new_context() {
        final boolean outermost = guard.authorize(NamingOperation.NEW_CONTEXT, objectId, null);
        try {
            final NamingContext made = super.new_context();
            guard.made(NamingOperation.NEW_CONTEXT, outermost);
            return made;
        } finally {
            guard.leave(outermost);
        }
    }

    private static void copyState(final NamingContextImpl from, final NamingContextImpl to) {
        try {
            for (final Field field : STATE) {
                field.set(to, field.get(from));
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot copy a naming context's bindings: " + e, e);
        }
    }

    /** @return JacORB's naming context's saved fields (its bindings and flags), made accessible */
    private static List<Field> persistentState() {
        final List<Field> fields = new ArrayList<>();
        try {
            for (final Field field : NamingContextImpl.class.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers()) && !Modifier.isTransient(field.getModifiers())) {
                    field.setAccessible(true);
                    fields.add(field);
                }
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException("JacORB's NamingContextImpl's fields are not accessible; this naming service was"
                + " written against JacORB 3.9: " + e, e);
        }
        return List.copyOf(fields);
    }
}
