package org.latencyserver.client;

import java.util.Objects;
import java.util.function.Function;
import org.latencyserver.idl.latency.Estimate;
import org.omg.CORBA.Any;
import org.omg.CORBA.ORB;
import org.omg.CORBA.Policy;
import org.omg.CORBA.PolicyError;
import org.omg.CORBA.SetOverrideType;
import org.omg.Messaging.RELATIVE_RT_TIMEOUT_POLICY_TYPE;
import org.omg.TimeBase.TimeTHelper;

/**
 * Puts a deadline on the calls made through an object reference, with the CORBA Messaging
 * {@code RelativeRoundtripTimeoutPolicy}: a call through the returned reference that has no reply
 * within the deadline ends with {@link org.omg.CORBA.TIMEOUT} instead of waiting. The request was
 * sent, so the target may still carry it out (JacORB 3.9 reports completion status
 * {@code COMPLETED_NO} all the same: do not read it as "not done").
 *
 * <p>The policy is set as an override on a new reference ({@code _set_policy_override},
 * {@code SET_OVERRIDE}); the reference passed in keeps its own policies, so one object can be
 * called with and without a deadline, or with several. The deadline counts from when each call is
 * sent: it is relative, and applies to every call made through the reference, each on its own.
 *
 * <p>It is independent of JacORB's {@code jacorb.connection.client.pending_reply_timeout} (which
 * {@code OrbSupport.properties} sets for every call of an ORB): whichever is shorter ends a call,
 * so a deadline shorter than the ORB's reply time-out is the one that counts.
 *
 * <p>The policy's value is a {@code TimeBase::TimeT}, in units of 100 ns: a deadline in nanoseconds
 * is rounded up to the next unit, and is at least one unit ({@link #timeTUnits}).
 */
public final class RoundtripTimeouts {

    /** Nanoseconds in one {@code TimeBase::TimeT} unit. */
    public static final long NANOS_PER_TIME_T = 100;

    private RoundtripTimeouts() {
    }

    /**
     * @param deadlineNanos a deadline in nanoseconds, {@code >= 1}
     * @return it in {@code TimeBase::TimeT} units of 100 ns, rounded up (never shorter than asked)
     * @throws IllegalArgumentException when {@code deadlineNanos < 1}
     */
    public static long timeTUnits(final long deadlineNanos) {
        if (deadlineNanos < 1) {
            throw new IllegalArgumentException("a round-trip deadline must be at least 1 ns, was " + deadlineNanos);
        }
        return (deadlineNanos - 1) / NANOS_PER_TIME_T + 1;
    }

    /**
     * @param orb           the ORB that creates the policy
     * @param deadlineNanos the deadline in nanoseconds, {@code >= 1}
     * @return a {@code RelativeRoundtripTimeoutPolicy} of {@link #timeTUnits timeTUnits(deadlineNanos)}
     * @throws IllegalArgumentException when {@code deadlineNanos < 1}
     * @throws IllegalStateException    when the ORB does not support the policy
     */
    public static Policy relativeRoundtripTimeout(final ORB orb, final long deadlineNanos) {
        Objects.requireNonNull(orb, "orb");
        final long units = timeTUnits(deadlineNanos);
        final Any value = orb.create_any();
        TimeTHelper.insert(value, units);
        try {
            return orb.create_policy(RELATIVE_RT_TIMEOUT_POLICY_TYPE.value, value);
        } catch (PolicyError e) {
            throw new IllegalStateException("this ORB does not support the RelativeRoundtripTimeoutPolicy (PolicyError "
                + e.reason + ")", e);
        }
    }

    /**
     * @param orb           the ORB that creates the policy
     * @param ref           the reference to call through (not changed)
     * @param deadlineNanos the deadline of each call in nanoseconds, {@code >= 1}
     * @return a new reference to the same object whose calls end with {@link org.omg.CORBA.TIMEOUT}
     *         after the deadline; not narrowed (see {@link #withTimeout(ORB, org.omg.CORBA.Object, long, Function)})
     * @throws IllegalArgumentException when {@code deadlineNanos < 1}
     */
    public static org.omg.CORBA.Object withTimeout(final ORB orb, final org.omg.CORBA.Object ref, final long deadlineNanos) {
        Objects.requireNonNull(ref, "ref");
        final Policy policy = relativeRoundtripTimeout(orb, deadlineNanos);
        return ref._set_policy_override(new Policy[] {policy}, SetOverrideType.SET_OVERRIDE);
    }

    /**
     * As {@link #withTimeout(ORB, org.omg.CORBA.Object, long)}, narrowed with the type's helper,
     * e.g. {@code withTimeout(orb, peer, deadlineNanos, EchoPeerHelper::narrow)}. A helper's
     * {@code narrow} may ask the object whether it has the type (a remote {@code _is_a}, itself
     * under the deadline); {@code unchecked_narrow} does not.
     *
     * @param <T>           the interface type
     * @param orb           the ORB that creates the policy
     * @param ref           the reference to call through (not changed)
     * @param deadlineNanos the deadline of each call in nanoseconds, {@code >= 1}
     * @param narrow        the helper's {@code narrow} or {@code unchecked_narrow}
     * @return the narrowed reference with the deadline
     * @throws IllegalArgumentException when {@code deadlineNanos < 1}
     */
    public static <T extends org.omg.CORBA.Object> T withTimeout(final ORB orb, final org.omg.CORBA.Object ref,
                                                                 final long deadlineNanos,
                                                                 final Function<org.omg.CORBA.Object, T> narrow) {
        Objects.requireNonNull(narrow, "narrow");
        return narrow.apply(withTimeout(orb, ref, deadlineNanos));
    }

    /**
     * The reference with a deadline derived from a deadline value ({@link Deadline#deadlineNanos()}).
     *
     * @param <T>      the interface type
     * @param orb      the ORB that creates the policy
     * @param ref      the reference to call through (not changed)
     * @param deadline the deadline
     * @param narrow   the helper's {@code narrow} or {@code unchecked_narrow}
     * @return the narrowed reference with the deadline
     */
    public static <T extends org.omg.CORBA.Object> T withDeadline(final ORB orb, final org.omg.CORBA.Object ref,
                                                                  final Deadline deadline,
                                                                  final Function<org.omg.CORBA.Object, T> narrow) {
        Objects.requireNonNull(deadline, "deadline");
        return withTimeout(orb, ref, deadline.deadlineNanos(), narrow);
    }

    /**
     * Straight from a served estimate: the deadline is {@link Deadline#ofEstimate Deadline.ofEstimate(estimate,
     * margin)} (a bound, or an average's interval upper end, with the margin). A stale or pending
     * estimate is used as it is; call {@link Deadline#ofEstimate} first to look at its flags.
     *
     * @param <T>      the interface type
     * @param orb      the ORB that creates the policy
     * @param ref      the reference to call through (not changed)
     * @param estimate the served estimate of the connection the calls travel
     * @param margin   the margin to apply
     * @param narrow   the helper's {@code narrow} or {@code unchecked_narrow}
     * @return the narrowed reference with the deadline
     * @throws IllegalArgumentException when the estimate's served number is not finite or not positive
     */
    public static <T extends org.omg.CORBA.Object> T withEstimate(final ORB orb, final org.omg.CORBA.Object ref,
                                                                  final Estimate estimate, final DeadlineMargin margin,
                                                                  final Function<org.omg.CORBA.Object, T> narrow) {
        return withDeadline(orb, ref, Deadline.ofEstimate(estimate, margin), narrow);
    }
}
