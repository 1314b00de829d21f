package org.latencyserver.core.state;

/**
 * A kind of workstation, as profiles and the IDL name it. The thesis's two types keep codes 3
 * and 4 ({@code client_workstation_type}, {@code peer_workstation_type}); other types get codes
 * from 5 up, assigned by the server's configuration. Code 0 is reserved on the wire for "not
 * known" and is not a valid type code here.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name e.g. {@code "TAC-4"}, as profiles write it
 * @param code the IDL code (an IDL {@code short}), 1..32767
 */
public record WorkstationType(String name, int code) {

    /** The thesis's TAC-3 workstation. */
    public static final WorkstationType TAC_3 = new WorkstationType("TAC-3", 3);
    /** The thesis's TAC-4 workstation. */
    public static final WorkstationType TAC_4 = new WorkstationType("TAC-4", 4);

    /**
     * @throws IllegalArgumentException when the name is blank or the code outside 1..32767
     */
    public WorkstationType {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("workstation type name must not be blank");
        }
        if (code < 1 || code > Short.MAX_VALUE) {
            throw new IllegalArgumentException("workstation type code must be 1..32767, was " + code);
        }
    }
}
