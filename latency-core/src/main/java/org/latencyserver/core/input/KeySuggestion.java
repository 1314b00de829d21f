package org.latencyserver.core.input;

import java.util.Collection;
import java.util.TreeSet;

/**
 * Finds the known key a mistyped one was probably meant to be, by Levenshtein edit distance.
 *
 * <p>Stateless and thread-safe.
 */
public final class KeySuggestion {

    private KeySuggestion() {
    }

    /**
     * @param key   the unknown key
     * @param known the keys allowed where it stood
     * @return the closest known key when it is close — at most 2 edits, or a quarter of the key's
     *         length for long keys — else null; ties go to the alphabetically first
     */
    public static String closest(final String key, final Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String candidate : new TreeSet<>(known)) {
            final int distance = distance(key, candidate);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = candidate;
            }
        }
        return bestDistance <= Math.max(2, key.length() / 4) ? best : null;
    }

    /** @return the Levenshtein distance: insertions, deletions and substitutions turning a into b */
    public static int distance(final String a, final String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                final int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
