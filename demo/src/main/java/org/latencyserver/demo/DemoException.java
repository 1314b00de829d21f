package org.latencyserver.demo;

/** The demo cannot go on; the message says which part failed and where its log is. */
final class DemoException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    DemoException(final String message) {
        super(message);
    }
}
