package org.latencyserver.orb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;
import org.omg.CosNaming.NamingContextPackage.CannotProceed;
import org.omg.CosNaming.NamingContextPackage.InvalidName;
import org.omg.CosNaming.NamingContextPackage.NotFound;

/**
 * Turns what a user types after {@code --server} or {@code --peer} into an object reference.
 *
 * <p>Accepted forms, tried in this order:
 * <ul>
 *   <li>a stringified reference: {@code IOR:…}, {@code corbaloc:…}, {@code corbaname:…};</li>
 *   <li>a file holding one (as {@code ./latency server} writes with {@code --ior-file});</li>
 *   <li>otherwise a name in the naming service given as {@code naming} (e.g. {@code LatencyServer}
 *       or {@code peers/ws2}).</li>
 * </ul>
 * Every failure is a {@link ReferenceException} that says which form was tried and why it failed.
 * Resolving does not contact the object itself; the first call does.
 */
public final class References {

    private References() {
    }

    /**
     * @param orb    the ORB
     * @param text   the reference as typed
     * @param naming the naming service's reference (corbaloc/IOR), or null when there is none
     * @return the object reference, not narrowed
     * @throws ReferenceException when the text is no reference, the file cannot be read, or the
     *                            name is not bound
     */
    public static org.omg.CORBA.Object resolve(final ORB orb, final String text, final String naming) {
        if (text == null || text.isBlank()) {
            throw new ReferenceException("an empty reference was given");
        }
        final String trimmed = text.trim();
        if (isStringified(trimmed)) {
            try {
                return orb.string_to_object(trimmed);
            } catch (SystemException e) {
                throw new ReferenceException("'" + abbreviate(trimmed) + "' is not a valid reference: " + e);
            }
        }
        final Path file = Path.of(trimmed);
        if (Files.isRegularFile(file)) {
            final String content;
            try {
                content = Files.readString(file).trim();
            } catch (IOException e) {
                throw new ReferenceException("cannot read the reference file " + file + ": " + e.getMessage());
            }
            if (!isStringified(content)) {
                throw new ReferenceException("the file " + file + " holds no IOR:, corbaloc: or corbaname: reference");
            }
            return resolve(orb, content, naming);
        }
        if (naming == null) {
            throw new ReferenceException("'" + trimmed + "' is neither a reference nor an existing file, and no naming "
                + "service was given to look it up in (--naming corbaloc::HOST:2809/NameService)");
        }
        try {
            return namingContext(orb, naming).resolve_str(trimmed);
        } catch (NotFound e) {
            throw new ReferenceException("'" + trimmed + "' is not bound in the naming service " + naming);
        } catch (InvalidName | CannotProceed e) {
            throw new ReferenceException("'" + trimmed + "' cannot be looked up in " + naming + ": " + e);
        } catch (SystemException e) {
            throw new ReferenceException("the naming service " + naming + " cannot be reached (" + describe(e) + ")");
        }
    }

    /**
     * Resolves a Latency Server for a client workstation: as {@link #resolve}, except that a name
     * bound to a directory of partitions (a naming context, as {@code LatencyServer} is in a
     * partitioned deployment) leads to the server of the node's partition,
     * {@code NAME/by-client/NODE}. A name bound to a server is that server, whatever the node (the
     * single-server deployment, unchanged).
     *
     * @param orb    the ORB
     * @param text   the server as typed ({@code --server}); a name needs {@code naming}
     * @param naming the naming service's reference, or null
     * @param nodes  the client workstations the caller works for (e.g. {@code --node}); empty for none
     * @return the server's reference, not narrowed
     * @throws ReferenceException as {@link #resolve}, and when the name is a directory of partitions but no node
     *                            is given, a node is in no partition, or the nodes are in different partitions
     */
    public static org.omg.CORBA.Object resolveServer(final ORB orb, final String text, final String naming,
                                                     final java.util.Collection<String> nodes) {
        final org.omg.CORBA.Object object = resolve(orb, text, naming);
        final String trimmed = text.trim();
        if (isStringified(trimmed) || Files.isRegularFile(Path.of(trimmed)) || !isNamingContext(object)) {
            return object;
        }
        if (nodes.isEmpty()) {
            throw new ReferenceException("'" + trimmed + "' in " + naming + " is a partitioned deployment (a directory of partitions):"
                + " give the client workstation (--node NODE) to find its partition's server as " + trimmed + "/"
                + Partitions.BY_CLIENT + "/NODE, or name one partition's server (" + trimmed + "/PARTITION)");
        }
        org.omg.CORBA.Object found = null;
        String foundFor = null;
        for (final String node : new java.util.TreeSet<>(nodes)) {
            final String name = Partitions.byClientName(trimmed, node);
            final org.omg.CORBA.Object server;
            try {
                server = namingContext(orb, naming).resolve_str(name);
            } catch (NotFound e) {
                throw new ReferenceException("client node '" + node + "' is in no partition registered in " + naming + " (" + name
                    + " is not bound; is its partition's server running, with this node in its configuration?)");
            } catch (InvalidName | CannotProceed e) {
                throw new ReferenceException("'" + name + "' cannot be looked up in " + naming + ": " + e);
            } catch (SystemException e) {
                throw new ReferenceException("the naming service " + naming + " cannot be reached (" + describe(e) + ")");
            }
            if (found != null && !orb.object_to_string(found).equals(orb.object_to_string(server))) {
                throw new ReferenceException("client nodes '" + foundFor + "' and '" + node + "' belong to different partitions' "
                    + "servers; give nodes of one partition (one agent per partition)");
            }
            found = server;
            foundFor = node;
        }
        return found;
    }

    private static boolean isNamingContext(final org.omg.CORBA.Object object) {
        try {
            return object._is_a(org.omg.CosNaming.NamingContextHelper.id());
        } catch (SystemException e) {
            // A server that is down cannot say what it is; a naming context lives in the naming service, which answered.
            return false;
        }
    }

    /**
     * Binds (or rebinds) a name, creating the intermediate contexts of a compound name such as
     * {@code peers/ws2}. Every call goes to the root context given as {@code naming}, with the
     * compound name: so a writer that reaches a naming service over IIOP/TLS
     * ({@code corbaloc:ssliop:1.2@HOST:PORT/NameService}) makes every change over TLS, even one in a
     * sub-context, whose own reference would let its ORB choose plain IIOP.
     *
     * @param orb       the ORB
     * @param naming    the naming service's reference
     * @param name      the name, components separated by {@code /}
     * @param reference what to bind
     * @throws ReferenceException when the naming service cannot be reached or refuses the name
     */
    public static void bind(final ORB orb, final String naming, final String name, final org.omg.CORBA.Object reference) {
        try {
            final NamingContextExt root = namingContext(orb, naming);
            final org.omg.CosNaming.NameComponent[] components = root.to_name(name);
            makeContexts(root, components);
            root.rebind(components, reference);
        } catch (org.omg.CORBA.UserException e) {
            throw new ReferenceException("cannot bind '" + name + "' in " + naming + ": " + e);
        } catch (org.omg.CORBA.NO_PERMISSION e) {
            throw new ReferenceException("the naming service " + naming + " refused to bind '" + name + "' (" + describe(e)
                + ", minor code " + e.minor + "): bind over IIOP/TLS (corbaloc:ssliop:1.2@HOST:TLSPORT/NameService) with a"
                + " certificate its principals file lets bind this name");
        } catch (SystemException e) {
            throw new ReferenceException("the naming service " + naming + " cannot be reached (" + describe(e) + ")");
        }
    }

    /**
     * Makes the naming contexts above the name's last component that are missing, and replaces one left over from an
     * earlier naming-service process (its database survived, its objects did not).
     */
    private static void makeContexts(final NamingContextExt root, final org.omg.CosNaming.NameComponent[] components)
        throws org.omg.CORBA.UserException {
        for (int i = 1; i < components.length; i++) {
            final org.omg.CosNaming.NameComponent[] prefix = java.util.Arrays.copyOf(components, i);
            try {
                if (isGone(root.resolve(prefix))) {
                    root.rebind_context(prefix, root.new_context());
                }
            } catch (NotFound e) {
                root.bind_new_context(prefix);
            }
        }
    }

    /**
     * Binds {@code name} only if nothing is bound there: CosNaming's {@code bind}, which the naming service refuses with
     * {@code AlreadyBound} when another object holds the name, so two servers racing for an unbound name cannot both
     * end up believing they hold it. Intermediate contexts are made as {@link #bind} makes them.
     *
     * @throws ReferenceException when the name is bound already, or the naming service refuses or cannot be reached
     */
    public static void bindIfUnbound(final ORB orb, final String naming, final String name, final org.omg.CORBA.Object reference) {
        try {
            final NamingContextExt root = namingContext(orb, naming);
            final org.omg.CosNaming.NameComponent[] components = root.to_name(name);
            makeContexts(root, components);
            root.bind(components, reference);
        } catch (org.omg.CosNaming.NamingContextPackage.AlreadyBound e) {
            throw new ReferenceException("'" + name + "' in " + naming + " was bound by another object meanwhile: left so");
        } catch (org.omg.CORBA.UserException e) {
            throw new ReferenceException("cannot bind '" + name + "' in " + naming + ": " + e);
        } catch (SystemException e) {
            throw new ReferenceException("the naming service " + naming + " cannot be reached (" + describe(e) + ")");
        }
    }

    /**
     * @param e a CORBA system exception
     * @return its kind and reason on one line, e.g. {@code TRANSIENT: Retries exceeded, couldn't reconnect to
     *         127.0.0.1:2809}, without the minor code and completion status that mean nothing to a user
     */
    public static String describe(final SystemException e) {
        final String kind = e.getClass().getSimpleName();
        return e.getMessage() == null || e.getMessage().isBlank() ? kind : kind + ": " + e.getMessage();
    }

    private static boolean isGone(final org.omg.CORBA.Object object) {
        try {
            return object._non_existent();
        } catch (SystemException e) {
            return true;
        }
    }

    private static NamingContextExt namingContext(final ORB orb, final String naming) {
        return NamingContextExtHelper.narrow(orb.string_to_object(naming));
    }

    /** @return whether the text is a stringified reference ({@code IOR:}, {@code corbaloc:}, {@code corbaname:}) */
    static boolean isStringified(final String text) {
        return text.startsWith("IOR:") || text.startsWith("corbaloc:") || text.startsWith("corbaname:");
    }

    private static String abbreviate(final String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }

    /** A reference that could not be resolved; the message says what was tried and why it failed. */
    public static final class ReferenceException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** @param message what was tried and why it failed */
        public ReferenceException(final String message) {
            super(message);
        }
    }
}
