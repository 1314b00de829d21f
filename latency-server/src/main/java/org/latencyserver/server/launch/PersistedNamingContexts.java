package org.latencyserver.server.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;
import org.jacorb.naming.NamingContextImpl;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.Servant;
import org.omg.PortableServer._ServantActivatorLocalBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The naming service's servant activator: brings a naming context (JacORB's
 * {@link NamingContextImpl}) to life when it is first called, with the bindings it had when the
 * naming service last stopped cleanly, and saves them when the POA lets it go (at a clean stop).
 * A context's bindings are one Java-serialised {@code NamingContextImpl} in
 * {@code DIRECTORY/_nsdb<object id>} ({@code _nsdb_root} for the root context) — the files JacORB's
 * own name server reads and writes, so a directory it left is read as it was.
 *
 * <p>Why not JacORB's own activator: it is private to JacORB's {@code NameServer}, whose only entry
 * is a {@code main} that reads system properties, blocks and exits the JVM on failure. Reaching
 * {@code NamingContextImpl}'s package-private {@code init(POA)} (which turns the saved references
 * back into objects of this ORB) by reflection is what that costs; it is checked once, when the
 * class is loaded, and fails then with a message naming the JacORB version this was written for.
 *
 * <p>Thread-safety: the POA calls it from its request threads, one call per object id at a time.
 */
final class PersistedNamingContexts extends _ServantActivatorLocalBase {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(PersistedNamingContexts.class);
    /** JacORB's name for the files of its name server's database. */
    private static final String FILE_PREFIX = "_nsdb";
    private static final Method INIT_WITH_POA = initWithPoa();

    private final transient Path directory;
    private final transient Configuration configuration;
    private final transient NamingWriteGuard guard;

    /**
     * @param directory     where the contexts' files are
     * @param configuration the ORB's JacORB configuration (logging, purge and ping settings of the contexts)
     * @param guard         who may change bindings, and the changes' counts ({@link GuardedNamingContext}s
     *                      are made); null for JacORB's contexts, open to any caller and uncounted
     */
    PersistedNamingContexts(final Path directory, final Configuration configuration, final NamingWriteGuard guard) {
        this.directory = directory;
        this.configuration = configuration;
        this.guard = guard;
    }

    @Override
    public Servant incarnate(final byte[] objectId, final POA adapter) {
        final Path file = fileOf(objectId);
        NamingContextImpl context = null;
        if (Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                if (in.available() > 0) {
                    context = (NamingContextImpl) new ObjectInputStream(in).readObject();
                }
            } catch (IOException | ClassNotFoundException | ClassCastException e) {
                LOG.warn("the bindings in {} cannot be read ({}); that naming context starts empty", file, e.toString());
            }
        }
        if (context == null) {
            context = new NamingContextImpl();
        }
        if (guard != null) {
            context = GuardedNamingContext.guarding(context, objectId, guard);
        }
        try {
            INIT_WITH_POA.invoke(context, adapter);
            context.configure(configuration);
        } catch (IllegalAccessException | InvocationTargetException | ConfigurationException e) {
            throw new IllegalStateException("cannot bring the naming context " + file.getFileName() + " to life: " + e, e);
        }
        return context;
    }

    @Override
    public void etherealize(final byte[] objectId, final POA adapter, final Servant servant, final boolean cleanupInProgress,
                            final boolean remainingActivations) {
        final Path file = fileOf(objectId);
        try {
            // Atomically: a naming service killed while saving leaves the previous file, not half of one.
            final Path temporary = Files.createTempFile(directory, file.getFileName().toString(), ".tmp");
            try (OutputStream out = Files.newOutputStream(temporary); ObjectOutputStream objects = new ObjectOutputStream(out)) {
                // JacORB's own class, guarded or not: the files stay readable by JacORB's name server.
                objects.writeObject(servant instanceof GuardedNamingContext guarded ? guarded.toPlain() : servant);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            LOG.error("cannot save the naming context's bindings in {}: {}", file, e.toString());
        }
    }

    private Path fileOf(final byte[] objectId) {
        return directory.resolve(FILE_PREFIX + new String(objectId, StandardCharsets.ISO_8859_1));
    }

    private static Method initWithPoa() {
        try {
            final Method method = NamingContextImpl.class.getDeclaredMethod("init", POA.class);
            method.setAccessible(true);
            return method;
        } catch (NoSuchMethodException | RuntimeException e) {
            throw new IllegalStateException("JacORB's NamingContextImpl has no accessible init(POA); this naming service was"
                + " written against JacORB 3.9: " + e, e);
        }
    }
}
