package org.latencyserver.server.corba;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.latencyserver.server.engine.Refusal;

/**
 * A call's input after its checks: the value that passed them all, or the refusal of the first that
 * failed (later checks do not run). Checks chain in the order the caller is to hear of them.
 *
 * <p>Immutable and thread-safe when the value is.
 *
 * @param value   what passed; null when refused
 * @param refusal why refused; null when passed
 * @param <T>     what passed
 */
record Checked<T>(T value, Refusal refusal) {

    /**
     * @param value what passed
     * @param <T>   its type
     * @return a value that passed
     */
    static <T> Checked<T> passed(final T value) {
        return new Checked<>(Objects.requireNonNull(value, "value"), null);
    }

    /**
     * @param refusal why
     * @param <T>     what would have passed
     * @return a refused input
     */
    static <T> Checked<T> refused(final Refusal refusal) {
        return new Checked<>(null, Objects.requireNonNull(refusal, "refusal"));
    }

    /**
     * @param refusal a check's verdict on the value
     * @param value   what passes when it is empty
     * @param <T>     its type
     * @return the value, or the refusal
     */
    static <T> Checked<T> unless(final Optional<Refusal> refusal, final T value) {
        return refusal.isPresent() ? refused(refusal.get()) : passed(value);
    }

    /** @return whether a check refused */
    boolean isRefused() {
        return refusal != null;
    }

    /**
     * @param next the next check, given what passed so far
     * @param <U>  what it passes on
     * @return its result, or this refusal (then {@code next} does not run)
     */
    <U> Checked<U> then(final Function<? super T, Checked<U>> next) {
        return isRefused() ? refused(refusal) : next.apply(value);
    }

    /**
     * @param check a check of what passed so far: a refusal, or empty
     * @return this value when the check passes, else its refusal (it does not run after an earlier refusal)
     */
    Checked<T> check(final Function<? super T, Optional<Refusal>> check) {
        return isRefused() ? this : unless(check.apply(value), value);
    }

    /**
     * @param convert what to pass on instead, given what passed
     * @param <U>     its type
     * @return the converted value, or this refusal
     */
    <U> Checked<U> map(final Function<? super T, U> convert) {
        return isRefused() ? refused(refusal) : passed(convert.apply(value));
    }

    /**
     * @param prefix what the caller is told before the refusal, e.g. the connection
     * @return this value, or this refusal after the prefix
     */
    Checked<T> refusalPrefixed(final String prefix) {
        return isRefused() ? refused(refusal.prefixed(prefix)) : this;
    }
}
