package org.latencyserver.launch;

import java.nio.file.Path;

/** A stand-in component for {@link ProcessKitTest}: prints, writes its ready file, then sleeps or exits. */
public final class ReadyTestMain {

    private ReadyTestMain() {
    }

    /**
     * @param args {@code sleep|exit|fork} then {@code --ready-file PATH} (the kit appends it)
     * @throws Exception never expected
     */
    public static void main(final String[] args) throws Exception {
        System.out.println("starting " + args[0]);
        if (args[0].equals("exit")) {
            System.exit(3);
        }
        Process grandchild = null;
        if (args[0].equals("fork")) {
            grandchild = new ProcessBuilder("sleep", "600").start();
        }
        ReadyFile.of(Component.CONSOLE).fact("grandchild", grandchild == null ? -1 : grandchild.pid())
            .writeTo(Path.of(args[2]));
        Thread.sleep(600_000);
    }
}
