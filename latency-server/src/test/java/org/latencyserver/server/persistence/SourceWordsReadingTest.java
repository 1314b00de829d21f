package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputFaultsException;
import org.latencyserver.orb.EstimateSource;

/**
 * The {@code source} of a saved connection is written as its wire word, and every word a state file holds (the words
 * the server always wrote) reads back as its {@link EstimateSource}; an unknown word is a fault naming the field and the word.
 */
class SourceWordsReadingTest {

    private static String state(final String sourceField) {
        return "{\"format\":\"latency-server-state/3\",\"generation\":1,\"connections\":[{\"index_ref\":7,\"qos\":3,"
            + "\"message_size_bytes\":256,\"latest\":[10,20,30],\"previous\":[10,20,30]" + sourceField + "}]}";
    }

    private static EstimateSource decoded(final String sourceField) throws InputFaultsException {
        return StateCodec.decode(state(sourceField), "state.json", 20_000).connections().get((short) 7).served().source();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', emptyValue = "", value = {
        "\"\"                           | NONE",
        "measurement                    | MEASUREMENT",
        "remembered measurement         | REMEMBERED",
        "band probes                    | BAND_PROBES",
        "profile                        | PROFILE",
        "profile fallback               | PROFILE_FALLBACK",
        "previous state's measurement   | PREVIOUS_STATE"})
    void everyWordOfAnOlderStateFileReadsAsItsSource(final String word, final EstimateSource expected) throws Exception {
        assertEquals(expected, decoded(",\"source\":\"" + word + "\""));
        assertEquals(word, expected.word(), "the word written is the word read");
    }

    @Test
    void aRecordWithoutASourceTakesWhatItsEstimateImplies() throws Exception {
        assertEquals(EstimateSource.NONE, decoded(""), "no estimate: nothing served");
    }

    @Test
    void anUnknownWordIsAFaultNamingTheFieldAndTheWord() {
        final InputFaultsException error = assertThrows(InputFaultsException.class, () -> decoded(",\"source\":\"guessed\""));
        final List<InputFault> faults = error.faults();
        assertEquals(1, faults.size(), faults::toString);
        assertEquals("connections[0]", faults.get(0).path());
        assertEquals("source: unknown source 'guessed'; expected one of ['', 'measurement', 'remembered measurement', 'band probes',"
            + " 'profile', 'profile fallback', 'previous state's measurement']", faults.get(0).reason());
    }

    @Test
    void wireCodesAreStableAndDistinct() {
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6), List.of(EstimateSource.values()).stream().map(EstimateSource::wireCode).toList());
        for (final EstimateSource source : EstimateSource.values()) {
            assertEquals(source, EstimateSource.fromWireCode(source.wireCode()).orElseThrow());
            assertEquals(source, EstimateSource.fromWord(source.word()).orElseThrow());
        }
    }
}
