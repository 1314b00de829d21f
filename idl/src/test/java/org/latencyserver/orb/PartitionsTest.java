package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.latencyserver.orb.Partitions.IndexRange;

/** The names and index ranges of a partitioned deployment, without a naming service (the process tests have one). */
class PartitionsTest {

    @Test
    void indexRefsBecomeTheFewestContiguousRangesWhateverTheirOrder() {
        assertEquals(List.of(new IndexRange(1, 3), new IndexRange(7, 7), new IndexRange(9, 10)),
            Partitions.rangesOf(List.of(10, 2, 7, 1, 9, 3, 2)));
        assertEquals(List.of(), Partitions.rangesOf(List.of()));
        assertEquals(List.of(new IndexRange(32_767, 32_767)), Partitions.rangesOf(List.of(32_767)));
    }

    @Test
    void rangesOverlapWhereTheyShareAnIndexRefOnly() {
        assertEquals(new IndexRange(5, 6), new IndexRange(1, 6).overlap(new IndexRange(5, 9)));
        assertEquals(new IndexRange(4, 4), new IndexRange(4, 4).overlap(new IndexRange(1, 9)));
        assertNull(new IndexRange(1, 4).overlap(new IndexRange(5, 9)), "adjacent ranges do not overlap");
        assertEquals("4", new IndexRange(4, 4).describe());
        assertEquals("4-5", new IndexRange(4, 5).describe());
    }

    @Test
    void aRangeIsReadBackFromItsBindingsNameAndAnythingElseIsNoRange() {
        assertEquals(new IndexRange(101, 200), IndexRange.parse(new IndexRange(101, 200).toString()));
        for (final String notARange : List.of("", "-", "7", "a-b", "9-3", "-4-5", "1-")) {
            assertNull(IndexRange.parse(notARange), notARange);
        }
        assertThrows(IllegalArgumentException.class, () -> new IndexRange(5, 4));
    }

    @Test
    void aPartitionIsOneNameComponentAndNotADirectoryOfTheDeployment() {
        assertEquals(Optional.empty(), Partitions.refusal("east-1_b"));
        for (final String bad : List.of("", "east/1", "p.1", Partitions.BY_CLIENT, Partitions.INDEX_RANGES, "x".repeat(65))) {
            assertTrue(Partitions.refusal(bad).isPresent(), bad);
        }
    }

    @Test
    void namesEscapeWhatAStringifiedNameWouldSplit() {
        assertEquals("LatencyServer/p1", Partitions.partitionName("LatencyServer", "p1"));
        assertEquals("LatencyServer/by-client/ws1\\.lab", Partitions.byClientName("LatencyServer", "ws1.lab"));
        assertEquals("LatencyServer/by-client/a\\/b\\\\c", Partitions.byClientName("LatencyServer", "a/b\\c"));
        assertEquals("LatencyServer/index-ranges/p1/1-200", Partitions.rangeName("LatencyServer", "p1", new IndexRange(1, 200)));
    }
}
