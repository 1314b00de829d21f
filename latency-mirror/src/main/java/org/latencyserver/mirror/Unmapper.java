package org.latencyserver.mirror;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * Unmaps a {@link MappedByteBuffer} now rather than when it is garbage collected, with
 * {@code sun.misc.Unsafe.invokeCleaner} (module {@code jdk.unsupported}, usable without any JVM
 * flag). If that is not available the mapping is released by the garbage collector instead.
 *
 * <p>Stateless; thread-safe. The caller guarantees that no thread touches the buffer afterwards.
 */
final class Unmapper {

    private static final MethodHandle INVOKE_CLEANER = findInvokeCleaner();

    private Unmapper() {
    }

    private static MethodHandle findInvokeCleaner() {
        try {
            final Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            final Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            return MethodHandles.lookup()
                .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
                .bindTo(theUnsafe.get(null));
        } catch (final ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    static void unmap(final MappedByteBuffer buffer) {
        if (INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invokeExact((ByteBuffer) buffer);
        } catch (final RuntimeException | Error e) {
            throw e;
        } catch (final Throwable t) {
            throw new IllegalStateException("cannot unmap the mirror file", t);
        }
    }
}
