package org.latencyserver.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code ./latency client-agent} and {@code ./latency profile measure|load|learned} run this
 * module's classes with its runtime jars (peer-agent's among them). Logback reads the one
 * logback.xml in this module's classes; if a dependency's jar carried another, every start would
 * print logback's status lines about the duplicate. No jar may carry one (the parent pom excludes
 * it from every module's jar).
 *
 * <p>Only jars are checked: a reactor build that stops before {@code package} puts the other
 * modules' class directories on the test classpath, which the launcher never does.
 */
class LogbackOnceTest {

    @Test
    void logbackXmlIsInThisModulesClassesAndInNoJar() throws Exception {
        final List<URL> found = Collections.list(getClass().getClassLoader().getResources("logback.xml"));
        final List<URL> inJars = new ArrayList<>();
        final List<URL> inThisModule = new ArrayList<>();
        for (final URL url : found) {
            if ("jar".equals(url.getProtocol())) {
                inJars.add(url);
            } else if (url.getPath().endsWith("/client-agent/target/classes/logback.xml")) {
                inThisModule.add(url);
            }
        }
        assertEquals(List.of(), inJars, "a dependency's jar carries logback.xml: " + found);
        assertEquals(1, inThisModule.size(), "this module's own logback.xml: " + found);
    }
}
