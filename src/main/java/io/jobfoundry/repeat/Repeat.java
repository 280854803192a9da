package io.jobfoundry.repeat;

import java.time.Instant;

/**
 * How a recurring job repeats: Bedrock::Jobs' repeat syntax, or a cron expression.
 *
 * <h2>Grammar</h2>
 * Case-insensitive; spaces, tabs and line breaks may be repeated and surround commas freely.
 * <pre>
 * repeat   = base "," modifier { "," modifier }
 *          | "HOURLY" | "DAILY" | "WEEKLY"
 *          | "CRON" [ ( "TZ=" | "CRON_TZ=" ) zone ] cron-field cron-field cron-field cron-field cron-field
 * base     = "SCHEDULED" | "STARTED" | "FINISHED"
 * modifier = [ "+" | "-" ] number unit          (a space may follow the sign; one must precede the unit)
 *          | "START OF" ( "DAY" | "MONTH" | "YEAR" )
 *          | "WEEKDAY" ( "0" | "1" | … | "6" )        (0 = Sunday)
 * number   = digit { digit } [ "." digit { digit } ]
 * unit     = SECOND | MINUTE | HOUR | DAY | MONTH | YEAR, singular or plural
 * zone     = a tz database name, such as Europe/Berlin, in any case
 * </pre>
 * The canned names mean {@code HOURLY} = {@code FINISHED, +1 HOUR}, {@code DAILY} =
 * {@code FINISHED, +1 DAY}, {@code WEEKLY} = {@code FINISHED, +7 DAYS}.
 *
 * <h2>Meaning</h2>
 * A {@link ModifierRepeat} takes the base time of the last run and applies the modifiers left to
 * right, each meaning exactly what it means in SQLite's {@code datetime()} in UTC (Bedrock hands
 * them to SQLite). A {@link CronRepeat} fires at the first match after the last run was both due
 * and finished. Examples:
 * <ul>
 *   <li>{@code FINISHED, +1 HOUR} — an hour after each run finishes;
 *   <li>{@code SCHEDULED, +1 HOUR} — every hour on the hour it started on, catching up missed
 *       runs back to back;
 *   <li>{@code FINISHED, +1 DAY, START OF DAY, +4 HOURS} — every day at 04:00 UTC;
 *   <li>{@code FINISHED, +1 DAY, WEEKDAY 1, START OF DAY, +6 HOURS} — every Monday at 06:00 UTC;
 *   <li>{@code SCHEDULED, +1 MONTH, START OF MONTH} — the 1st of every month at midnight;
 *   <li><code>CRON *&#47;15 * * * *</code> — at :00, :15, :30 and :45 of every hour;
 *   <li>{@code CRON TZ=Europe/Berlin 0 9 * * MON-FRI} — weekdays at 09:00 in Berlin, summer and winter.
 * </ul>
 *
 * <h2>Refused</h2>
 * A base without modifiers, unknown bases, units or modifiers, {@code WEEKDAY 7},
 * {@code START OF WEEK}, empty parts (trailing or double commas), empty input, input longer than
 * 1024 characters or with non-ASCII characters, numbers written other than as above (no
 * exponents, NaN or Infinity), numbers beyond SQLite's limit for their unit, and — when
 * evaluated — times outside the years 0000 to 9999. A new job's repeat, and a preview's, must also
 * always move forward ({@link #requireProgress()}).
 *
 * <p>Values are immutable and thread-safe; {@code RepeatParser.parse(r.normalized()).equals(r)}; {@link RepeatParser#parse} makes them.
 */
public sealed interface Repeat permits ModifierRepeat, CronRepeat {

    /**
     * The time the next run is due, given when the last one was due, started and finished (all
     * required; each kind of repeat reads the ones it needs). Whole milliseconds; may be in the
     * past.
     *
     * @throws RepeatRangeException if the computation leaves the years 0000 to 9999
     */
    Instant next(Instant scheduled, Instant started, Instant finished);

    /**
     * The time {@link #next} counts from, of the same three: the next time moves forward when it
     * is after this one.
     */
    Instant from(Instant scheduled, Instant started, Instant finished);

    /**
     * This repeat, if it always moves forward: from any base time, its next time is after it.
     * Checked where a new repeat comes in (a job's, a preview's), not on one already stored, which
     * must keep working. A cron expression always moves forward.
     *
     * @throws RepeatStallException if, from some base time, the next time is not after it
     */
    Repeat requireProgress();

    /**
     * The canonical text: upper case, single spaces, {@code ", "} between parts, canned names
     * spelled out, numbers without redundant zeros or plus signs, singular unit only for 1:
     * {@code hourly} is {@code FINISHED, +1 HOUR}, {@code finished,+ 01.50 hour} is
     * {@code FINISHED, +1.5 HOURS}. It is also valid SQLite modifier text, part by part.
     */
    String normalized();
}
