package io.jobfoundry.repeat;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code CRON [TZ=<zone>] <minute> <hour> <day-of-month> <month> <day-of-week>}: a standard 5-field
 * UNIX cron expression (crontab(5): ranges, lists, steps, month and day names, 0 or 7 for Sunday),
 * evaluated by cron-utils in UTC or in the {@link CronZone zone} it names. The two day fields
 * combine as in crontab(5) (Vixie cron, cronie): when
 * both are restricted, that is neither starts with {@code *}, a day matching either runs; otherwise
 * a day must match both. cron-utils takes a step such as <code>*&#47;2</code> as a restriction and would
 * answer <code>0 0 *&#47;2 * 1</code> with every odd day and every Monday, where cron runs odd-numbered
 * Mondays; such an expression is evaluated here on its day-of-month with the day of week as a filter.
 *
 * <p>The next run is the first time the expression matches <em>strictly after both the
 * scheduled time and the finish time</em> of the last run. That is what a cron user expects:
 * <ul>
 *   <li>runs stay on the expression's wall-clock grid (<code>*&#47;15</code> means :00, :15, :30, :45,
 *       not "15 minutes after the last one finished");
 *   <li>slots that passed while the run was still going, or while nothing ran at all, are
 *       skipped, as cron skips the minutes a machine was down — a job that was off for a day
 *       does not fire 96 times back to back (use {@code SCHEDULED, +15 MINUTES} for that);
 *   <li>a slot never runs twice, even when a clock skewed between replicas makes a run finish
 *       before the time it was scheduled for.
 * </ul>
 * The start time plays no part.
 *
 * <p>In a zone with daylight-saving time, an expression whose minute or hour field starts with
 * {@code *} runs on the clock as it is, as cronie runs such jobs: every quarter hour stays every
 * quarter hour of real time, through the hour the clock shows twice, and the hour it skips has no
 * slots. Any other expression names times of day, which {@link CronZone#firstInstant} places: a
 * time the clock skips runs at the jump, a time it shows twice runs the first time, so a nightly
 * 02:30 job neither misses the night the clock springs forward nor runs twice when it falls back.
 */
public final class CronRepeat implements Repeat {

    static final List<String> EXAMPLES = List.of("CRON */15 * * * *", "CRON 0 4 * * *", "CRON 0 6 * * MON",
            "CRON 30 2 1 * *", CronZone.EXAMPLES.get(0));

    // Immutable once built (cron-utils fills its tables in the constructor), so one serves all threads.
    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final ZonedDateTime EPOCH = Instant.EPOCH.atZone(ZoneOffset.UTC);

    /** What each of the five fields holds, for the detail of a refusal. */
    private static final List<String> FIELDS = List.of("minute field (0-59)", "hour field (0-23)",
            "day-of-month field (1-31)", "month field (1-12 or JAN-DEC)", "day-of-week field (0-7 or SUN-SAT)");

    /** A day-of-week filter never runs longer than one Gregorian cycle of days. */
    private static final int MAX_FILTERED_DAYS = 400 * 366;

    /**
     * Wall-clock slots that can fall at or before the base: only those in an hour the clock shows
     * twice or skips, fewer than a day's minutes.
     */
    private static final int MAX_PASSED_SLOTS = 24 * 60;

    private final String expression;
    /** The zone the fields are read in; null for UTC. */
    private final CronZone zone;
    /** Whether the minute or hour field starts with {@code *}: such expressions run on the clock as it is. */
    private final boolean onTheClock;
    private final ExecutionTime executionTime;
    /** When the day fields must both match (see above): the expression's day-of-week alone; else null. */
    private final ExecutionTime weekdays;

    private CronRepeat(String expression, CronZone zone, ExecutionTime executionTime, ExecutionTime weekdays) {
        this.expression = expression;
        this.zone = zone;
        String[] fields = expression.split(" ");
        this.onTheClock = fields[0].startsWith("*") || fields[1].startsWith("*");
        this.executionTime = executionTime;
        this.weekdays = weekdays;
    }

    /**
     * @param fields exactly five cron fields, upper case, without whitespace
     * @param zone the zone they are read in, or null for UTC
     * @param written the expression as the client wrote it, for error messages
     */
    static CronRepeat of(List<String> fields, CronZone zone, String written) {
        if (fields.size() != 5) {
            throw new RepeatSyntaxException("a cron expression has exactly 5 fields", written, EXAMPLES);
        }
        String expression = String.join(" ", fields);
        List<String> parsed = new ArrayList<>(fields);
        parsed.set(4, sundayFirst(fields.get(4)));
        String dayOfMonth = parsed.get(2);
        String dayOfWeek = parsed.get(4);
        boolean bothDays = !dayOfMonth.equals("*") && !dayOfWeek.equals("*")
                && (dayOfMonth.startsWith("*") || dayOfWeek.startsWith("*"));
        CronRepeat repeat;
        try {
            repeat = bothDays
                    ? new CronRepeat(expression, zone, executionTime(String.join(" ", parsed.subList(0, 4)) + " *"),
                            executionTime(parsed.get(0) + " " + parsed.get(1) + " * " + parsed.get(3) + " " + dayOfWeek))
                    : new CronRepeat(expression, zone, executionTime(String.join(" ", parsed)), null);
        } catch (RuntimeException e) {
            // cron-utils reports bad input with unchecked exceptions of several kinds; all of
            // them mean the client's expression is wrong. Its messages are its own; the detail
            // names the field at fault instead, found by parsing each field alone.
            for (int field = 0; field < 5; field++) {
                List<String> alone = new ArrayList<>(List.of("*", "*", "*", "*", "*"));
                alone.set(field, parsed.get(field));
                try {
                    executionTime(String.join(" ", alone));
                } catch (RuntimeException inField) {
                    String fault = CronFieldFaults.of(field, fields.get(field));
                    throw new RepeatSyntaxException("invalid cron " + FIELDS.get(field)
                            + (fault == null ? "" : ": " + fault), fields.get(field), EXAMPLES, e);
                }
            }
            throw new RepeatSyntaxException("invalid cron expression", written, EXAMPLES, e);
        }
        // 0 0 30 2 * parses but never fires. Cron matches repeat with the 400-year Gregorian
        // cycle, so no next time after 1970 means none ever.
        if (repeat.nextExecution(EPOCH).isEmpty()) {
            throw new RepeatSyntaxException("cron expression never fires", written, EXAMPLES);
        }
        return repeat;
    }

    /**
     * The day-of-week field with {@code SUN} as 0 where it begins a range or stands alone, and as 7
     * where it ends one: cron-utils reads the name as 7 everywhere, so that {@code SUN-THU}, a
     * working week in much of the world, was 7-4, a range backwards.
     */
    static String sundayFirst(String dayOfWeek) {
        StringBuilder out = new StringBuilder();
        for (String item : dayOfWeek.split(",", -1)) {
            int slash = item.indexOf('/');
            String range = slash < 0 ? item : item.substring(0, slash);
            int dash = range.indexOf('-');
            String from = dash < 0 ? range : range.substring(0, dash);
            String first = from.equals("SUN") ? "0" : from;
            String rewritten = first;
            if (dash >= 0) {
                String to = range.substring(dash + 1);
                rewritten += "-" + (to.equals("SUN") ? first.equals("0") ? "0" : "7" : to);
            }
            out.append(out.isEmpty() ? "" : ",").append(rewritten).append(slash < 0 ? "" : item.substring(slash));
        }
        return out.toString();
    }

    private static ExecutionTime executionTime(String expression) {
        Cron cron = PARSER.parse(expression);
        cron.validate();
        return ExecutionTime.forCron(cron);
    }

    /** The first match strictly after {@code from}, with both day fields matching where crontab(5) asks for it. */
    private Optional<ZonedDateTime> nextExecution(ZonedDateTime from) {
        Optional<ZonedDateTime> next = executionTime.nextExecution(from);
        if (weekdays == null) {
            return next;
        }
        for (int days = 0; next.isPresent() && days < MAX_FILTERED_DAYS; days++) {
            if (weekdays.isMatch(next.get())) {
                return next;
            }
            // Not this day at all: the first match of the day-of-month from the next day on.
            ZonedDateTime lastSecond =
                    next.get().toLocalDate().plusDays(1).atStartOfDay(next.get().getZone()).minusSeconds(1);
            next = executionTime.nextExecution(lastSecond);
        }
        return Optional.empty();
    }

    /** The five fields, single-spaced and upper case, as in <code>*&#47;15 * * * *</code>. */
    public String expression() {
        return expression;
    }

    /**
     * @throws RepeatRangeException if the base is outside 0000–9999 or the expression does not
     *     fire again before the year 10000
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
        Instant base = Instant.ofEpochMilli(Timeline.toMillis(from));
        Optional<Instant> next = zone == null || onTheClock
                ? nextExecution(base.atZone(zone == null ? ZoneOffset.UTC : zone.id())).map(ZonedDateTime::toInstant)
                : onTheWallClock(base);
        if (next.isEmpty() || !Timeline.contains(next.get())) {
            throw new RepeatRangeException(normalized(), from);
        }
        return next.get();
    }

    /**
     * The first time of day the fields name, read on the zone's wall clock, that happens after
     * {@code base}. The fields are matched against the wall clock's reading (as if it were UTC);
     * {@link CronZone#firstInstant} then says when that reading happens. A slot can happen at or
     * before the base only around a change of the clock: one the clock showed twice and that ran
     * the first time, or several it skipped that ran together at the jump.
     */
    private Optional<Instant> onTheWallClock(Instant base) {
        ZonedDateTime wall = LocalDateTime.ofInstant(base, zone.id()).atZone(ZoneOffset.UTC);
        for (int slot = 0; slot < MAX_PASSED_SLOTS; slot++) {
            Optional<ZonedDateTime> next = nextExecution(wall);
            if (next.isEmpty()) {
                return Optional.empty();
            }
            Instant at = zone.firstInstant(next.get().toLocalDateTime());
            if (at.isAfter(base)) {
                return Optional.of(at);
            }
            wall = next.get();
        }
        throw new IllegalStateException("no slot of " + normalized() + " after " + base + " within a day of slots");
    }

    /** The later of the scheduled and the finish time: the next run is the first match after both. */
    @Override
    public Instant from(Instant scheduled, Instant started, Instant finished) {
        return finished.isAfter(scheduled) ? finished : scheduled;
    }

    /** The first match after the base: always later. */
    @Override
    public Repeat requireProgress() {
        return this;
    }

    @Override
    public String normalized() {
        return zone == null ? "CRON " + expression : "CRON " + zone.normalized() + " " + expression;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CronRepeat cron && cron.normalized().equals(normalized());
    }

    @Override
    public int hashCode() {
        return normalized().hashCode();
    }

    @Override
    public String toString() {
        return normalized();
    }
}
