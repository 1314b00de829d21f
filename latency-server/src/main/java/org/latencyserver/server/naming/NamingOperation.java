package org.latencyserver.server.naming;

/**
 * The naming context operations that change bindings, each with its IDL name, which is also the
 * metrics' {@code operation} label (a contract: it never changes).
 */
public enum NamingOperation {
    /** {@code bind}. */
    BIND("bind"),
    /** {@code rebind}. */
    REBIND("rebind"),
    /** {@code bind_context}. */
    BIND_CONTEXT("bind_context"),
    /** {@code rebind_context}. */
    REBIND_CONTEXT("rebind_context"),
    /** {@code unbind}. */
    UNBIND("unbind"),
    /** {@code bind_new_context}. */
    BIND_NEW_CONTEXT("bind_new_context"),
    /** {@code destroy}. */
    DESTROY("destroy"),
    /** {@code new_context}. */
    NEW_CONTEXT("new_context");

    private final String word;

    NamingOperation(final String word) {
        this.word = word;
    }

    /** @return the operation's IDL name */
    public String word() {
        return word;
    }
}
