package org.latencyserver.core.input;

/**
 * The syntaxes {@link InputNode} reads. Both go through Jackson's streaming parsers, which report
 * where each token stood, so faults point at lines and columns in either.
 */
public enum InputFormat {
    /** YAML 1.1, one document; aliases are refused (see {@link InputNode}). */
    YAML("malformed YAML: "),
    /** JSON, one document; NaN and Infinity parse as numbers so that a reader can name the field. */
    JSON("malformed or truncated JSON: ");

    private final String syntaxFaultPrefix;

    InputFormat(final String syntaxFaultPrefix) {
        this.syntaxFaultPrefix = syntaxFaultPrefix;
    }

    /** @return how a syntax fault's reason begins, e.g. {@code "malformed YAML: "} */
    String syntaxFaultPrefix() {
        return syntaxFaultPrefix;
    }
}
