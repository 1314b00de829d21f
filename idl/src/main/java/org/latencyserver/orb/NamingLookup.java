package org.latencyserver.orb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.Binding;
import org.omg.CosNaming.BindingIteratorHolder;
import org.omg.CosNaming.BindingListHolder;
import org.omg.CosNaming.BindingType;
import org.omg.CosNaming.NameComponent;
import org.omg.CosNaming.NamingContext;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;
import org.omg.CosNaming.NamingContextHelper;
import org.omg.CosNaming.NamingContextPackage.NotFound;

/**
 * Looks names up in a CosNaming service with the standard calls only ({@code resolve},
 * {@code list}, {@code unbind}): what a name is bound to, a context's children and bindings.
 * A name that is not bound is null, never an exception; any other refusal of the naming service
 * is a {@link References.ReferenceException} naming the name.
 *
 * <p>Thread-safety: stateless; every method makes its own calls.
 */
final class NamingLookup {

    private static final int LIST_CHUNK = 1000;

    private NamingLookup() {
    }

    /**
     * @return the context a stringified name resolves to, or null when it is not bound
     * @throws NotADirectory when the name is bound to an object, not to a naming context
     */
    static NamingContext context(final ORB orb, final String naming, final String name) {
        final NamingContextExt root = NamingContextExtHelper.narrow(orb.string_to_object(naming));
        try {
            // What the name is bound to is read from its parent's listing, never by calling the bound
            // object: a single server that stopped cannot say whether it is a naming context.
            final NameComponent[] components = root.to_name(name);
            final NameComponent last = components[components.length - 1];
            final NamingContext parent = components.length == 1 ? root
                : NamingContextHelper.narrow(root.resolve(java.util.Arrays.copyOf(components, components.length - 1)));
            for (final Binding binding : bindings(parent)) {
                final NameComponent bound = binding.binding_name[0];
                if (bound.id.equals(last.id) && bound.kind.equals(last.kind)) {
                    final org.omg.CORBA.Object object = parent.resolve(new NameComponent[] {last});
                    if (binding.binding_type == BindingType.ncontext) {
                        return NamingContextHelper.unchecked_narrow(object);
                    }
                    throw new NotADirectory(object);
                }
            }
            return null;
        } catch (NotFound e) {
            return null;
        } catch (org.omg.CORBA.UserException e) {
            throw new References.ReferenceException("cannot look up '" + name + "': " + e);
        }
    }

    /** Unbinds a single server's name that its stopped server left bound, so that partitions may take the name. */
    static void unbindStale(final ORB orb, final String naming, final String root) {
        final NamingContextExt rootContext = NamingContextExtHelper.narrow(orb.string_to_object(naming));
        try {
            rootContext.unbind(rootContext.to_name(root));
        } catch (NotFound e) {
            // Unbound meanwhile.
        } catch (org.omg.CORBA.UserException e) {
            throw new References.ReferenceException("cannot unbind the stopped single server's name '" + root + "': " + e);
        }
    }

    /** The root name is bound to an object (a single server), not to a naming context. */
    static final class NotADirectory extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** What the root name is bound to; only for the thread that caught this. */
        final transient org.omg.CORBA.Object bound;

        NotADirectory(final org.omg.CORBA.Object bound) {
            super(null, null, false, false);
            this.bound = bound;
        }
    }

    /** @return the child context of that id, or null when it is not bound or no context */
    static NamingContext child(final NamingContext parent, final String id) {
        final org.omg.CORBA.Object bound = boundOrNull(parent, id, id);
        try {
            return bound == null ? null : NamingContextHelper.narrow(bound);
        } catch (org.omg.CORBA.BAD_PARAM e) {
            return null;
        }
    }

    /**
     * @param context  a naming context
     * @param id       one name component's id in it
     * @param fullName the whole name, for the error
     * @return what the id is bound to there, or null when it is not bound
     * @throws References.ReferenceException when the naming service refuses the lookup otherwise
     */
    static org.omg.CORBA.Object boundOrNull(final NamingContext context, final String id, final String fullName) {
        try {
            return context.resolve(new NameComponent[] {new NameComponent(id, "")});
        } catch (NotFound e) {
            return null;
        } catch (org.omg.CORBA.UserException e) {
            throw new References.ReferenceException("cannot look up '" + fullName + "': " + e);
        }
    }

    /** @return every binding of a context, through its iterator when there are many */
    static List<Binding> bindings(final NamingContext context) {
        final BindingListHolder first = new BindingListHolder();
        final BindingIteratorHolder rest = new BindingIteratorHolder();
        context.list(LIST_CHUNK, first, rest);
        final List<Binding> all = new ArrayList<>(List.of(first.value));
        if (rest.value != null) {
            try {
                final BindingListHolder more = new BindingListHolder();
                while (rest.value.next_n(LIST_CHUNK, more)) {
                    all.addAll(List.of(more.value));
                }
            } finally {
                rest.value.destroy();
            }
        }
        return all;
    }

    /**
     * @param orb     the ORB, to stringify references with
     * @param context a naming context
     * @return the id of each object binding of the context by its stringified reference (a binding
     *         unbound meanwhile is left out)
     */
    static Map<String, String> objectIdsByIor(final ORB orb, final NamingContext context) {
        final Map<String, String> ids = new HashMap<>();
        for (final Binding binding : bindings(context)) {
            if (binding.binding_type != BindingType.nobject) {
                continue;
            }
            try {
                ids.put(orb.object_to_string(context.resolve(binding.binding_name)), binding.binding_name[0].id);
            } catch (org.omg.CORBA.UserException e) {
                // Unbound meanwhile: it owns nothing.
            }
        }
        return ids;
    }

    /**
     * Unbinds every binding of a context, each through the naming service's root context with the
     * whole name, as {@link References#bind} binds: so a caller that reaches the naming service over
     * IIOP/TLS unbinds over TLS too. A binding unbound meanwhile is skipped.
     *
     * @param orb      the ORB to call with
     * @param naming   the naming service's reference
     * @param context  the context whose bindings go
     * @param rootName the stringified name the context's path starts from
     * @param ids      the ids of the plain name components from {@code rootName} down to the context
     */
    static void unbindEach(final ORB orb, final String naming, final NamingContext context, final String rootName,
                           final String... ids) {
        final NamingContextExt namingRoot = NamingContextExtHelper.narrow(orb.string_to_object(naming));
        for (final Binding binding : bindings(context)) {
            try {
                final List<NameComponent> name = new ArrayList<>(List.of(namingRoot.to_name(rootName)));
                for (final String id : ids) {
                    name.add(new NameComponent(id, ""));
                }
                name.addAll(List.of(binding.binding_name));
                namingRoot.unbind(name.toArray(new NameComponent[0]));
            } catch (org.omg.CORBA.UserException e) {
                // Unbound meanwhile.
            }
        }
    }
}
