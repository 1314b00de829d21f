package org.latencyserver.server.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * The configuration file is not well-formed YAML. Carries the place of the problem as SnakeYAML
 * saw it (Jackson's own location can point at an earlier token: for a tab used as indentation
 * it names the end of the previous line).
 */
final class YamlSyntaxException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;

    YamlSyntaxException(final int line, final int column, final String problem) {
        super(problem);
        this.line = line;
        this.column = column;
    }

    static YamlSyntaxException from(final JsonProcessingException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof org.yaml.snakeyaml.error.MarkedYAMLException marked && marked.getProblemMark() != null) {
                final String context = marked.getContext() == null || marked.getContextMark() == null ? ""
                    : " (" + marked.getContext() + " that began at line " + (marked.getContextMark().getLine() + 1) + ")";
                return new YamlSyntaxException(marked.getProblemMark().getLine() + 1, marked.getProblemMark().getColumn() + 1,
                    firstLine(marked.getProblem()) + context);
            }
        }
        final JsonLocation at = e.getLocation();
        return new YamlSyntaxException(at == null ? 0 : at.getLineNr(), at == null ? 0 : Math.max(0, at.getColumnNr()),
            firstLine(e.getOriginalMessage()));
    }

    private static String firstLine(final String text) {
        return text == null ? "unreadable" : text.lines().findFirst().orElse(text).trim();
    }

    /** @return 1-based line of the problem, 0 when unknown */
    int line() {
        return line;
    }

    /** @return 1-based column of the problem, 0 when unknown */
    int column() {
        return column;
    }
}
