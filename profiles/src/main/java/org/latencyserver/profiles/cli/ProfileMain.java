package org.latencyserver.profiles.cli;

/** Entry point of {@code ./latency profile ...}. */
public final class ProfileMain {

    private ProfileMain() {
    }

    /**
     * @param args the arguments after {@code profile}, e.g. {@code validate FILE}
     */
    public static void main(final String[] args) {
        System.exit(ProfileCommand.commandLine().execute(args));
    }
}
