package org.latencyserver.profiles.cli;

import picocli.CommandLine;

/** Entry point of {@code ./latency profile ...}: runs {@link ProfileCommand} and exits with its code. */
public final class ProfileMain {

    private ProfileMain() {
    }

    /**
     * @param args the arguments after {@code profile}, e.g. {@code validate FILE}
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new ProfileCommand()).execute(args));
    }
}
