package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The extended interface documents every estimate source with its code and word, as the server sends them. */
class EstimateSourceContractTest {

    private static final Path IDL = Path.of("src/main/idl/LatencyService.idl");

    @Test
    void theIdlListsEverySourceWithItsCodeAndWord() throws Exception {
        final String idl = Files.readString(IDL);
        final Matcher listed = Pattern.compile("//\\s+code (\\d+)\\s+\"([^\"]*)\"").matcher(idl);
        int count = 0;
        while (listed.find()) {
            final int code = Integer.parseInt(listed.group(1));
            final EstimateSource source = EstimateSource.fromWireCode(code).orElseThrow(() -> new AssertionError("code " + code));
            assertEquals(source.word(), listed.group(2), "the word of code " + code);
            count++;
        }
        assertEquals(EstimateSource.values().length, count, "every source is listed once");
    }

    @Test
    void anUnknownWordOrCodeIsNoSource() {
        assertTrue(EstimateSource.fromWord("measured").isEmpty());
        assertTrue(EstimateSource.fromWord(null).isEmpty());
        assertTrue(EstimateSource.fromWireCode(7).isEmpty());
    }
}
