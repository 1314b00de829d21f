package org.latencyserver.demo;

import java.io.IOException;
import java.util.List;
import org.latencyserver.testbed.CommandFailedException;
import org.latencyserver.testbed.CommandRunner;
import org.latencyserver.testbed.PortLoad;
import org.latencyserver.testbed.StateDirectory;
import org.latencyserver.testbed.Teardown;
import org.latencyserver.testbed.TestbedNames;

/**
 * Removes the real-network demo's testbed when it stops: the iperf3 load through each bottleneck port, then the
 * testbed ({@link Teardown}: its namespaces take their interfaces, bridges and qdiscs with them), tried twice, then a
 * check that no namespace of it is left.
 *
 * <p>Stateless; called under the demo's lifecycle lock, by whichever thread stops it.
 */
final class TestbedRemoval {

    private TestbedRemoval() {
    }

    /**
     * @param problems where what is left or failed is added, in words
     * @return what was removed, in words for the demo's last line ({@code "; removed testbed …"}); empty when removing
     *         failed
     */
    static String remove(final TestbedNames testbedNames, final StateDirectory testbedState, final List<String> bottleneckPorts,
                         final List<String> problems) {
        try {
            for (final String port : bottleneckPorts) {
                PortLoad.stop(testbedState, port);
            }
            final Teardown teardown = new Teardown(testbedNames, testbedState, new CommandRunner());
            Teardown.Removed gone;
            try {
                gone = teardown.run();
            } catch (CommandFailedException | IOException e) {
                // e.g. testbed up's own stop hook removing it at the same moment: once more, then check
                Thread.sleep(500);
                gone = teardown.run();
            }
            final List<String> left = teardown.namespaces();
            if (!left.isEmpty()) {
                problems.add("namespaces left: " + left);
            }
            return "; removed testbed " + testbedNames.testbed() + " (" + gone.namespaces().size() + " namespaces, "
                + gone.processes() + " of its processes)";
        } catch (CommandFailedException | IOException e) {
            problems.add("removing testbed " + testbedNames.testbed() + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.add("interrupted while removing testbed " + testbedNames.testbed());
        }
        return "";
    }
}
