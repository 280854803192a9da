package io.jobfoundry.repeat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The time zone a {@code CRON} repeat is read in: {@code TZ=Europe/Berlin} (or robfig/cron's and
 * River's spelling, {@code CRON_TZ=Europe/Berlin}) before the five fields. Names are the tz
 * database's, matched regardless of case (a deploy script's {@code europe/berlin} means the same
 * zone) and shown in the database's own spelling.
 *
 * <p>Where the zone's clock changes, {@link #firstInstant} decides what a wall-clock time means:
 * a time the clock skips (02:30 on the night it jumps from 02:00 to 03:00) happens at the jump,
 * and a time it shows twice (01:30 on the night it falls back from 02:00 to 01:00) happens the
 * first time. So a job set for a time of day runs once on each such night, as cronie runs it;
 * {@link CronRepeat} keeps expressions that run every hour or minute on the clock as it is.
 */
record CronZone(ZoneId id) {

    static final List<String> EXAMPLES =
            List.of("CRON TZ=Europe/Berlin 0 9 * * MON-FRI", "CRON TZ=America/New_York 30 2 * * *");

    private static final String PREFIX = "TZ=";
    private static final String ROBFIG_PREFIX = "CRON_TZ=";

    /** Every region the JDK's tz database knows, by its name in lower case. */
    private static final Map<String, String> NAMES = byLowerCase();

    private static Map<String, String> byLowerCase() {
        Map<String, String> names = new HashMap<>();
        for (String name : ZoneId.getAvailableZoneIds()) {
            names.put(name.toLowerCase(Locale.ROOT), name);
        }
        return Map.copyOf(names);
    }

    /** Whether the word after {@code CRON} names a zone rather than being the minute field. */
    static boolean names(String word) {
        String upper = word.toUpperCase(Locale.ROOT);
        return upper.startsWith(PREFIX) || upper.startsWith(ROBFIG_PREFIX);
    }

    /**
     * @param word {@code TZ=<name>} or {@code CRON_TZ=<name>}, as written
     * @throws RepeatSyntaxException if the tz database has no zone of that name
     */
    static CronZone parse(String word) {
        String name = word.substring(word.indexOf('=') + 1);
        String known = NAMES.get(name.toLowerCase(Locale.ROOT));
        if (known == null) {
            throw new RepeatSyntaxException("unknown time zone (a tz database name such as Europe/Berlin)",
                    name.isEmpty() ? word : name, EXAMPLES);
        }
        return new CronZone(ZoneId.of(known));
    }

    /**
     * The first instant at which this zone's clock shows {@code local}: its only one on most days;
     * the earlier of two where the clock falls back over it; and, where the clock jumps over it,
     * the jump itself, which is the first instant the clock shows a later time.
     */
    Instant firstInstant(LocalDateTime local) {
        ZoneRules rules = id.getRules();
        List<ZoneOffset> offsets = rules.getValidOffsets(local);
        if (offsets.isEmpty()) {
            ZoneOffsetTransition jump = rules.getTransition(local);
            return jump.getInstant();
        }
        Instant first = local.toInstant(offsets.get(0));
        for (ZoneOffset offset : offsets) {
            Instant at = local.toInstant(offset);
            if (at.isBefore(first)) {
                first = at;
            }
        }
        return first;
    }

    /** {@code TZ=} and the zone's name as the tz database spells it. */
    String normalized() {
        return PREFIX + id.getId();
    }
}
