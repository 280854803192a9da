package io.jobfoundry.repeat;

import java.util.List;

/**
 * The valid repeats an error lists beside what was wrong, by the part that was: each part's own
 * examples, so that a client sees one that fits where its text went astray.
 */
final class RepeatExamples {

    static final List<String> GENERAL = List.of("FINISHED, +1 HOUR", "SCHEDULED, +1 DAY, START OF DAY, +4 HOURS",
            "FINISHED, +1 DAY, WEEKDAY 1, START OF DAY, +6 HOURS", "HOURLY", "CRON */15 * * * *");
    static final List<String> BASE = List.of("SCHEDULED, +1 HOUR", "STARTED, +30 MINUTES", "FINISHED, +1 DAY",
            "DAILY", "CRON 0 4 * * *");
    static final List<String> MODIFIER = List.of("+1 HOUR", "-30 MINUTES", "+1.5 DAYS", "START OF DAY",
            "WEEKDAY 1");
    static final List<String> OFFSET = List.of("+1 HOUR", "-30 MINUTES", "+1.5 DAYS", "+1 MONTH", "+10 SECONDS");
    static final List<String> START_OF = List.of("START OF DAY", "START OF MONTH", "START OF YEAR");
    static final List<String> WEEKDAY = List.of("WEEKDAY 0", "WEEKDAY 1", "WEEKDAY 6");

    private RepeatExamples() {
    }
}
