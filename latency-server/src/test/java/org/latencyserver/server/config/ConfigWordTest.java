package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigWordTest {

    static Stream<Arguments> words() {
        return Stream.of(
            Arguments.of(SecuritySettings.PlainIiop.READ_ONLY, "read-only"),
            Arguments.of(SnmpAccess.CpuSource.HR_PROCESSOR_LOAD, "hr-processor-load"),
            Arguments.of(SnmpAccess.Version.V2C, "v2c"),
            Arguments.of(SnmpAccess.AuthProtocol.SHA256, "sha256"),
            Arguments.of(MibSource.PUSH, "push"));
    }

    @ParameterizedTest(name = "{0} is written {1}")
    @MethodSource("words")
    void aConstantIsWrittenAsItsNameInLowerCaseWithHyphens(final ConfigWord constant, final String word) {
        assertEquals(word, constant.configName());
    }

    @Test
    void byWordFindsEveryConstantByItsWord() {
        assertEquals(Map.of("ucd-raw", SnmpAccess.CpuSource.UCD_RAW, "hr-processor-load", SnmpAccess.CpuSource.HR_PROCESSOR_LOAD),
            ConfigWord.byWord(SnmpAccess.CpuSource.class));
    }
}
