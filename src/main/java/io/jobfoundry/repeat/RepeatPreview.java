package io.jobfoundry.repeat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The upcoming run times of a repeat, for {@code POST /v1/repeat/preview}. */
public final class RepeatPreview {

    public static final int MAX_COUNT = 100;

    private RepeatPreview() {
    }

    /**
     * The next {@code count} run times: the first from the given times, each further one as if the
     * previous run had been scheduled, started and finished at its own time (a run that takes no
     * time). The list is shorter than {@code count} when the schedule runs past the year 9999.
     *
     * @param count 1 to {@value #MAX_COUNT}
     * @throws RepeatRangeException if not even the first run is inside the years 0000 to 9999
     * @throws IllegalArgumentException if count is out of bounds
     */
    public static List<Instant> upcoming(Repeat repeat, Instant scheduledAt, Instant startedAt, Instant finishedAt,
            int count) {
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("count must be 1 to " + MAX_COUNT + ": " + count);
        }
        List<Instant> times = new ArrayList<>(count);
        Instant next = repeat.next(scheduledAt, startedAt, finishedAt);
        times.add(next);
        while (times.size() < count) {
            try {
                next = repeat.next(next, next, next);
            } catch (RepeatRangeException endOfTime) {
                break;
            }
            times.add(next);
        }
        return List.copyOf(times);
    }
}
