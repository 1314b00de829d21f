package org.latencyserver.server.engine;

/**
 * The answer to a question about a connection: a value, or the reason there is none. Lets the
 * domain say "unavailable" without exceptions; the CORBA layer maps {@link Unavailable} to
 * {@code EstimateUnavailable}.
 *
 * @param <T> the value's type
 */
public sealed interface Answer<T> permits Answer.Found, Answer.Unavailable {

    /**
     * @param value the value
     * @param <T>   its type
     * @return a found answer
     */
    static <T> Answer<T> found(final T value) {
        return new Found<>(value);
    }

    /**
     * @param reason why there is no value, fit to show a caller
     * @param <T>    the value's type
     * @return an unavailable answer
     */
    static <T> Answer<T> unavailable(final String reason) {
        return new Unavailable<>(reason);
    }

    /**
     * @param unavailable makes the exception for an unavailable answer from its reason
     * @param <X>         the exception's type
     * @return the value of a found answer
     * @throws X when the answer is unavailable
     */
    <X extends Exception> T orElseThrow(java.util.function.Function<String, X> unavailable) throws X;

    /**
     * @param next the next question, asked of a found value
     * @param <R>  its answer's type
     * @return {@code next}'s answer, or this one's reason when there is no value
     */
    <R> Answer<R> then(java.util.function.Function<? super T, Answer<R>> next);

    /**
     * There is a value.
     *
     * @param value never null
     * @param <T>   its type
     */
    record Found<T>(T value) implements Answer<T> {
        /** Checks the value is present. */
        public Found {
            java.util.Objects.requireNonNull(value, "value");
        }

        @Override
        public <X extends Exception> T orElseThrow(final java.util.function.Function<String, X> unavailable) {
            return value;
        }

        @Override
        public <R> Answer<R> then(final java.util.function.Function<? super T, Answer<R>> next) {
            return next.apply(value);
        }
    }

    /**
     * There is none.
     *
     * @param reason why, fit to show a caller
     * @param <T>    the value's type
     */
    record Unavailable<T>(String reason) implements Answer<T> {

        @Override
        public <X extends Exception> T orElseThrow(final java.util.function.Function<String, X> unavailable) throws X {
            throw unavailable.apply(reason);
        }

        @Override
        public <R> Answer<R> then(final java.util.function.Function<? super T, Answer<R>> next) {
            return new Unavailable<>(reason);
        }
    }
}
