package org.latencyserver.systemtests.kit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ReadinessException;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import org.omg.CosNaming.NamingContextExtHelper;

/**
 * omniORB's naming service ({@code omniNames}, Debian {@code omniorb-nameserver}) as a child of the
 * kit: another ORB's CosNaming service, the proof that the system's use of the naming service is
 * not JacORB's own. It writes no ready file; it is ready when its root context answers a call
 * (asked every 200 ms), never judged by its log.
 *
 * @param child     its process
 * @param reference its corbaloc, {@code corbaloc::127.0.0.1:PORT/NameService}
 */
public record OmniNames(ChildProcess child, String reference) {

    /** Where Debian installs it. */
    public static final Path PROGRAM = Path.of("/usr/bin/omniNames");

    /**
     * Starts omniNames on a free loopback port with its data in {@code DIRECTORY/omninames} and waits
     * until it answers.
     *
     * @param system the kit (stops it with the other children)
     * @param orb    an ORB to ask it with
     * @return it, answering
     * @throws ReadinessException when it exits or does not answer within {@link SystemUnderTest#READY_TIMEOUT}
     */
    public static OmniNames start(final SystemUnderTest system, final ORB orb) throws IOException, InterruptedException {
        if (!Files.isExecutable(PROGRAM)) {
            throw new AssertionError(PROGRAM + " is needed for this test (Debian: apt-get install omniorb-nameserver; .ci/run does)");
        }
        final int port = SystemUnderTest.freeTcpPort();
        final Path data = Files.createDirectories(system.directory().resolve("omninames"));
        final ChildProcess child = system.launchProgram("omniNames", List.of(PROGRAM.toString(), "-start", Integer.toString(port),
            "-always", "-datadir", data.toString(), "-ORBendPoint", "giop:tcp:127.0.0.1:" + port)).start();
        final String reference = "corbaloc::127.0.0.1:" + port + "/NameService";
        final long deadline = System.nanoTime() + SystemUnderTest.READY_TIMEOUT.toNanos();
        while (true) {
            try {
                NamingContextExtHelper.narrow(orb.string_to_object(reference)).to_string(
                    new org.omg.CosNaming.NameComponent[] {new org.omg.CosNaming.NameComponent("probe", "")});
                return new OmniNames(child, reference);
            } catch (SystemException | org.omg.CORBA.UserException notYet) {
                if (!child.isAlive() || System.nanoTime() > deadline) {
                    throw new ReadinessException("omniNames did not answer at " + reference + " within "
                        + SystemUnderTest.READY_TIMEOUT.toSeconds() + " s\n" + child.logEnd(), notYet);
                }
                Thread.sleep(Duration.ofMillis(200).toMillis());
            }
        }
    }
}
