package io.jobfoundry.repeat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A Bedrock repeat: {@code BASE, MODIFIER[, MODIFIER…]}. The next run is the base time of the last
 * run with the modifiers applied left to right, each meaning exactly what the same modifier
 * means in SQLite's {@code datetime()} in UTC (see {@link Offset}, {@link StartOf},
 * {@link Weekday}).
 *
 * <p>Times are whole milliseconds, as in SQLite: sub-millisecond digits of the base are dropped
 * (towards the past) before the first step. (SQLite, handed the same time as text with more
 * digits, would round to the nearest millisecond but never up into the next second.)
 *
 * <p>With {@link Base#SCHEDULED} the next time can be in the past when runs fell behind; that is
 * on purpose: missed runs catch up back to back, none is skipped.
 *
 * @param modifiers at least one
 */
public record ModifierRepeat(Base base, List<Modifier> modifiers) implements Repeat {

    /** Base times {@link #requireProgress()} tries. */
    private static final List<Instant> PROGRESS_SAMPLES = progressSamples();
    /** Runs {@link #requireProgress()} follows from each sample. */
    private static final int PROGRESS_RUNS = 3;

    public ModifierRepeat {
        Objects.requireNonNull(base, "base");
        modifiers = List.copyOf(modifiers);
        if (modifiers.isEmpty()) {
            throw new RepeatSyntaxException("a repeat needs at least one modifier after its base", base.name(),
                    RepeatExamples.GENERAL);
        }
    }

    /**
     * @throws RepeatRangeException if the base, a step or the result is outside 0000–9999
     */
    @Override
    public Instant next(Instant scheduled, Instant started, Instant finished) {
        Objects.requireNonNull(scheduled, "scheduled");
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(finished, "finished");
        Instant from = from(scheduled, started, finished);
        if (!Timeline.contains(from)) {
            throw new RepeatRangeException(normalized(), from);
        }
        long millis = Timeline.toMillis(from);
        for (Modifier modifier : modifiers) {
            millis = modifier.applyTo(millis);
            if (!Timeline.contains(millis)) {
                throw new RepeatRangeException(normalized(), from);
            }
        }
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public Instant from(Instant scheduled, Instant started, Instant finished) {
        return base.pick(scheduled, started, finished);
    }

    /**
     * Tried from base times where modifiers change their effect: every few hours of each weekday,
     * the first and last millisecond of a day, and month and year ends (a leap day and a leap
     * year's end too). An offset backwards, a {@code START OF} or {@code WEEKDAY} without an offset
     * that carries past it, all show there. From each, the series is followed for a few runs, as a
     * {@code SCHEDULED} series is: a time the expression itself makes up ({@code START OF MONTH,
     * +30 DAYS, +18 HOURS} gives the 31st at 18:00) is where it stands still, which no fixed sample
     * would hit. Samples cannot prove progress for every base time; the engine also ends a stored
     * series whose next time is not later, instead of running it back to back.
     */
    @Override
    public Repeat requireProgress() {
        for (Instant sample : PROGRESS_SAMPLES) {
            Instant from = sample;
            for (int run = 0; run < PROGRESS_RUNS; run++) {
                Instant next = next(from, from, from);
                if (!next.isAfter(from)) {
                    throw new RepeatStallException(normalized(), from, next);
                }
                from = next;
            }
        }
        return this;
    }

    private static List<Instant> progressSamples() {
        List<Instant> samples = new ArrayList<>();
        LocalDate monday = LocalDate.of(2026, 1, 5);
        for (int day = 0; day < 7; day++) {
            for (LocalTime time : List.of(LocalTime.MIDNIGHT, LocalTime.of(6, 0), LocalTime.NOON,
                    LocalTime.of(18, 30), LocalTime.of(23, 59, 59, 999_000_000))) {
                samples.add(monday.plusDays(day).atTime(time).toInstant(ZoneOffset.UTC));
            }
        }
        for (String monthEnd : List.of("2026-01-31", "2026-02-28", "2028-02-29", "2026-04-30", "2026-12-31",
                "2028-12-31")) {
            LocalDate date = LocalDate.parse(monthEnd);
            samples.add(date.atStartOfDay().toInstant(ZoneOffset.UTC));
            samples.add(date.atTime(LocalTime.NOON).toInstant(ZoneOffset.UTC));
            samples.add(date.atTime(LocalTime.of(23, 59, 59, 999_000_000)).toInstant(ZoneOffset.UTC));
        }
        return List.copyOf(samples);
    }

    @Override
    public String normalized() {
        StringBuilder text = new StringBuilder(base.name());
        for (Modifier modifier : modifiers) {
            text.append(", ").append(modifier.normalized());
        }
        return text.toString();
    }

    @Override
    public String toString() {
        return normalized();
    }
}
