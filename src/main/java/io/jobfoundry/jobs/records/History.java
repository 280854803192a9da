package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.Texts;
import io.jobfoundry.jobs.model.Attempt;
import java.util.ArrayList;
import java.util.List;

/**
 * A job's most recent attempts, kept in its record and written in the transaction of the move
 * that ended each attempt, so the history can never disagree with the job.
 *
 * <p>The record is one value, and FoundationDB takes at most 100,000 bytes per value: 64 KiB of
 * data and a {@code lastError} of 4,096 characters (up to 16 KiB in UTF-8) leave about 18 KB. So
 * the history is bounded twice: at most {@link #MAX_ATTEMPTS} attempts, each error cut to
 * {@link #MAX_ERROR_LENGTH} characters (the whole last one is in {@code lastError}), and the
 * oldest dropped while they take more than {@link #MAX_BYTES} stored. With ASCII errors of the
 * full length that still keeps about fifteen attempts.
 */
public final class History {

    public static final int MAX_ATTEMPTS = 20;

    /** The longest error an attempt keeps, in characters. */
    public static final int MAX_ERROR_LENGTH = 500;

    /** The most bytes the stored history takes. */
    static final int MAX_BYTES = 8 * 1024;

    private History() {
    }

    /**
     * {@code history} with an attempt added, the oldest dropped past the bounds. {@code attempt}
     * is its place in its run (failed attempts so far, plus one).
     */
    static Tuple withAttempt(Tuple history, int attempt, Long startedAt, long endedAt, Attempt.Outcome outcome,
            String error, String worker) {
        List<Tuple> kept = new ArrayList<>(MAX_ATTEMPTS + 1);
        for (int i = 0; history != null && i < history.size(); i++) {
            kept.add(history.getNestedTuple(i));
        }
        kept.add(Tuple.from((long) attempt, startedAt, endedAt, (long) outcome.ordinal(),
                error == null ? null : Texts.truncate(error, MAX_ERROR_LENGTH), worker));
        while (kept.size() > MAX_ATTEMPTS) {
            kept.remove(0);
        }
        Tuple bounded = Tuple.fromList(new ArrayList<>(kept));
        while (bounded.getPackedSize() > MAX_BYTES && kept.size() > 1) {
            kept.remove(0);
            bounded = Tuple.fromList(new ArrayList<>(kept));
        }
        return bounded;
    }

    /** The attempts as clients see them, oldest first. */
    static List<Attempt> view(Tuple history) {
        if (history == null) {
            return List.of();
        }
        List<Attempt> attempts = new ArrayList<>(history.size());
        for (int i = 0; i < history.size(); i++) {
            Tuple t = history.getNestedTuple(i);
            attempts.add(new Attempt((int) t.getLong(0), Times.instantOrNull((Long) t.get(1)),
                    Times.instant(t.getLong(2)), Attempt.Outcome.values()[(int) t.getLong(3)], t.getString(4),
                    t.getString(5)));
        }
        return attempts;
    }
}
