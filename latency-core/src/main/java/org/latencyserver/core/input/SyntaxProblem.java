package org.latencyserver.core.input;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * Where and what a parser's syntax error is. For YAML the place is SnakeYAML's own mark: Jackson's
 * location can point at an earlier token (for a tab used as indentation it names the end of the
 * previous line). Stateless once built; thread-safe.
 */
final class SyntaxProblem {

    private final int line;
    private final int column;
    private final String problem;

    private SyntaxProblem(final int line, final int column, final String problem) {
        this.line = line;
        this.column = column;
        this.problem = problem;
    }

    static SyntaxProblem of(final JsonProcessingException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof org.yaml.snakeyaml.error.MarkedYAMLException marked && marked.getProblemMark() != null) {
                final String context = marked.getContext() == null || marked.getContextMark() == null ? ""
                    : " (" + marked.getContext() + " that began at line " + (marked.getContextMark().getLine() + 1) + ")";
                return new SyntaxProblem(marked.getProblemMark().getLine() + 1, marked.getProblemMark().getColumn() + 1,
                    firstLine(marked.getProblem()) + context);
            }
        }
        final JsonLocation at = e.getLocation();
        return new SyntaxProblem(at == null ? 0 : at.getLineNr(), at == null ? 0 : Math.max(0, at.getColumnNr()),
            withoutSourceDescription(firstLine(e.getOriginalMessage())));
    }

    /** Reports the problem at its place, path {@code file}, the reason starting with {@code prefix}. */
    void report(final String prefix, final InputFaults faults) {
        faults.add(line, column, "file", prefix + problem);
    }

    private static String firstLine(final String text) {
        return text == null ? "unreadable" : text.lines().findFirst().orElse(text).trim();
    }

    /** Jackson names its input "[Source: REDACTED ...; line: 1, column: 1]"; keep only the position. */
    private static String withoutSourceDescription(final String message) {
        return message.replaceAll("\\[Source: .*?; line: (\\d+), column: (\\d+)\\]", "line $1, column $2");
    }
}
