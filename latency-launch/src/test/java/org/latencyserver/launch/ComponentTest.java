package org.latencyserver.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ComponentTest {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();

    @Test
    void everyComponentNamesAModuleOfTheRepositoryAndAMainClassInItsSources() {
        for (final Component component : Component.values()) {
            final Path module = REPOSITORY.resolve(component.module());
            assertTrue(Files.isRegularFile(module.resolve("pom.xml")), component + ": no module " + module);
            final Path source = module.resolve("src/main/java").resolve(component.mainClass().replace('.', '/') + ".java");
            assertTrue(Files.isRegularFile(source), component + ": no main class source " + source);
        }
    }

    @Test
    void aComponentIsFoundByItsCommandName() {
        assertEquals(Component.SNMP_EMULATOR, Component.ofCommand("snmp-emulator").orElseThrow());
        assertFalse(Component.ofCommand("snmp_emulator").isPresent());
    }

    @Test
    void everyComponentThatSaysItWritesAReadyFileTakesTheReadyFileOption() throws IOException {
        for (final Component component : Component.values()) {
            final Path source = REPOSITORY.resolve(component.module()).resolve("src/main/java")
                .resolve(component.mainClass().replace('.', '/') + ".java");
            final String text = Files.readString(source);
            // The option itself, or the mixin that declares it for every main.
            final boolean takesOption = text.contains("\"--ready-file\"") || text.contains("new " + ReadinessOptions.class.getSimpleName() + "()");
            assertEquals(component.writesReadyFile(), takesOption,
                component + ": registry says ready_file=" + component.writesReadyFile() + " but " + source
                    + (takesOption ? " takes" : " does not take") + " --ready-file");
        }
    }

    @Test
    void theLauncherScriptNamesNoMainClassAndDispatchesEveryRegisteredComponent() throws IOException {
        final String script = Files.readString(REPOSITORY.resolve("latency"));
        assertFalse(Pattern.compile("org\\.latencyserver\\.[a-z.]+\\.[A-Z]\\w*Main").matcher(script).find(), "./latency names a main class itself; it must read "
            + Component.REGISTRY_RESOURCE);
        final String dispatch = script.substring(script.indexOf("case \"$command\" in"));
        for (final Component component : Component.values()) {
            final Pattern named = Pattern.compile("(run_component |[\\s|(])" + Pattern.quote(component.command()) + "[\\s|)]");
            assertTrue(named.matcher(dispatch).find(), "./latency does not dispatch component '" + component.command() + "'");
        }
    }
}
