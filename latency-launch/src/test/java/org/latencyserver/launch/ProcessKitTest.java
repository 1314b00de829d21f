package org.latencyserver.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessKitTest {

    @TempDir
    Path work;

    private ChildProcess startStandIn(final ProcessKit kit, final String name, final String mode) throws Exception {
        // launchClass writes no ready file; the stand-in takes the path as a component would.
        return kit.launchClass(name, ReadyTestMain.class.getName())
            .args(mode, "--ready-file", work.resolve(name + ".ready.json").toString()).start();
    }

    @Test
    void aChildIsReadyWhenItsReadyFileAppearsAndItsOutputIsInItsLog() throws Exception {
        try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
            final ChildProcess child = startStandIn(kit, "stand-in", "sleep");

            final ReadyFile ready = ReadyFile.await(work.resolve("stand-in.ready.json"), Duration.ofSeconds(60),
                child::isAlive, child::logEnd);

            assertEquals(child.pid(), ready.pid());
            assertTrue(child.log().contains("starting sleep"), child.log());
        }
    }

    @Test
    void aChildThatExitsBeforeItIsReadyIsReportedWithItsLog() throws Exception {
        try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
            final ChildProcess child = startStandIn(kit, "quitter", "exit");

            final ReadinessException failed = assertThrows(ReadinessException.class,
                () -> ReadyFile.await(work.resolve("quitter.ready.json"), Duration.ofSeconds(60), child::isAlive, child::logEnd));

            assertTrue(failed.getMessage().contains("starting exit"), failed.getMessage());
            assertEquals(3, child.awaitExit(Duration.ofSeconds(30)));
        }
    }

    @Test
    void stoppingTheKitEndsEveryChildAndItsDescendants() throws Exception {
        final ProcessKit kit = ProcessKit.fromThisClasspath(work);
        try {
            final ChildProcess child = startStandIn(kit, "forker", "fork");
            final ReadyFile ready = ReadyFile.await(work.resolve("forker.ready.json"), Duration.ofSeconds(60),
                child::isAlive, child::logEnd);
            final long grandchild = Long.parseLong(ready.fact("grandchild"));
            assertTrue(ProcessHandle.of(grandchild).map(ProcessHandle::isAlive).orElse(false), "the grandchild runs");

            assertTrue(kit.stopAll(), "stopAll reports every process ended");

            assertFalse(child.isAlive());
            assertFalse(ProcessHandle.of(grandchild).map(ProcessHandle::isAlive).orElse(false), "the grandchild was stopped too");
            assertTrue(kit.running().isEmpty());
        } finally {
            kit.close(); // a failed assertion must not leave the stand-in running
        }
    }

    @Test
    void aComponentThatWritesNoReadyFileCannotBeAwaitedAsReady() throws Exception {
        try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
            final ChildProcess child = startStandIn(kit, "plain", "sleep");

            assertThrows(IllegalStateException.class, () -> child.awaitReady(Duration.ofSeconds(1)));
        }
    }

    @Test
    void aRepositoryKitRunsAComponentFromItsModulesBuildOutput() throws Exception {
        final Path repository = Path.of("..").toAbsolutePath().normalize();
        try (ProcessKit kit = ProcessKit.fromRepository(repository, work)) {
            // The launch module's own classes: a component row is not needed to check the class path shape.
            final ChildProcess child = kit.launch(Component.CONSOLE).start();
            assertTrue(child.readyFile().toString().endsWith("console.ready.json"));
            assertEquals(work.resolve("console.log"), child.logFile());
        }
    }

    @Test
    void aProgramThatIsNotJavaRunsWithItsArgumentsAndEnvironmentAndItsOutputInItsLog() throws Exception {
        try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
            final ChildProcess child = kit.launchProgram("shell", List.of("/bin/sh", "-c", "echo \"$1 $GREETING\"", "sh"))
                .args("first-argument").env("GREETING", "from-the-environment").start();

            child.awaitSuccess(Duration.ofSeconds(30));

            assertEquals("first-argument from-the-environment\n", child.log());
            assertEquals(work.resolve("shell.log"), child.logFile());
            assertNull(child.readyFile(), "a program writes no ready file");
        }
    }

    @Test
    void aVariableLeftOutIsNotInheritedByTheChild() throws Exception {
        final String inherited = System.getenv().keySet().stream().filter(k -> k.equals("HOME") || k.equals("USER") || k.equals("LANG")).findFirst()
            .orElseThrow(() -> new AssertionError("the test JVM has none of HOME, USER, LANG to leave out (the shell sets a PATH of its own)"));
        try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
            final ChildProcess child = kit.launchProgram("env", List.of("/bin/sh", "-c", "echo \"[${" + inherited + "-unset}]\""))
                .withoutEnv(inherited).start();

            child.awaitSuccess(Duration.ofSeconds(30));

            assertEquals("[unset]\n", child.log(), inherited + " is left out");
        }
    }

    @Test
    void aChildStartedWithErrorsApartHasItsStandardOutputAloneInItsLogAndItsStandardErrorInItsErrFile() throws Exception {
        try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
            final ChildProcess child = kit.launchProgram("two-streams", List.of("/bin/sh", "-c", "echo out; echo err >&2"))
                .errorsApart().start();

            child.awaitSuccess(Duration.ofSeconds(30));

            assertEquals("out\n", child.log());
            assertEquals("err\n", child.errors());
            assertTrue(child.logEnd().contains("err"), "a failure quotes both: " + child.logEnd());
        }
    }

    @Test
    void aChildStartedWithoutErrorsApartHasBothStreamsInItsLog() throws Exception {
        try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
            final ChildProcess child = kit.launchProgram("one-stream", List.of("/bin/sh", "-c", "echo out; echo err >&2")).start();

            child.awaitSuccess(Duration.ofSeconds(30));

            assertEquals("out\nerr\n", child.log());
            assertEquals("", child.errors(), "no separate standard error");
        }
    }

    @Test
    void aProgramIsStoppedWithTheKitAndForgottenOnceStopped() throws Exception {
        final ProcessKit kit = ProcessKit.fromThisClasspath(work);
        final ChildProcess sleeper = kit.launchProgram("sleeper", List.of("/bin/sleep", "600")).start();
        assertTrue(sleeper.isAlive());

        assertTrue(kit.stop(sleeper), "stop reports that it ended");

        assertFalse(sleeper.isAlive());
        assertTrue(kit.running().isEmpty(), "a stopped child is forgotten");
    }

    @Test
    void aRepositoryKitAddsTheProjectModulesAModuleListsInItsModulesClasspath() throws Exception {
        final Path repository = work.resolve("repository");
        final Path target = java.nio.file.Files.createDirectories(repository.resolve("demo").resolve("target"));
        final ProcessKit kit = ProcessKit.fromRepository(repository, work);
        final String separator = java.io.File.pathSeparator;
        final String plain = target.resolve("classes") + separator + target.resolve("lib").resolve("*");
        assertEquals(plain, kit.classpathOf("demo"), "without the list: classes and lib only");

        java.nio.file.Files.writeString(target.resolve(ProcessKit.MODULES_CLASSPATH), "/r/launch/target/classes" + separator + "/r/x.jar\n");

        assertEquals(plain + separator + "/r/launch/target/classes" + separator + "/r/x.jar", kit.classpathOf("demo"));
    }

    @Test
    void aDistributionKitRunsAComponentThroughItsLauncherWithTheJvmOptionsInJavaOptsAndTheWorkDirectoryAsItsOwn()
        throws Exception {
        final Path home = work.resolve("latency-1.0");
        final Path launcher = java.nio.file.Files.createDirectories(home.resolve("bin")).resolve("latency");
        java.nio.file.Files.writeString(launcher, "#!/bin/sh\necho \"args: $*\"; echo \"JAVA_OPTS: $JAVA_OPTS\"; echo \"pwd: $(pwd)\"\n");
        assertTrue(launcher.toFile().setExecutable(true));
        final Path kitWork = java.nio.file.Files.createDirectories(work.resolve("kit"));
        try (ProcessKit kit = ProcessKit.fromDistribution(home, kitWork)) {
            final ChildProcess server = kit.launch(Component.SERVER).jvmOption("-Dlatency.example=1").args("--config", "c.yaml")
                .start();
            final ChildProcess profiler = kit.launch(Component.PROFILER).args("measure").start();
            server.awaitSuccess(Duration.ofSeconds(30));
            profiler.awaitSuccess(Duration.ofSeconds(30));

            assertEquals("args: server --config c.yaml --ready-file " + kitWork.resolve("server.ready.json") + "\n"
                + "JAVA_OPTS: -Dlatency.example=1\npwd: " + kitWork.toRealPath() + "\n", server.log());
            assertTrue(profiler.log().startsWith("args: profile measure\n"), profiler.log());
        }
    }
}
