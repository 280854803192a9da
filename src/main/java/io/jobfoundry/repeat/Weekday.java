package io.jobfoundry.repeat;

/**
 * {@code WEEKDAY N}: forward to the next day that is weekday {@code n} (0 = Sunday … 6 =
 * Saturday), keeping the time of day. A time already on that weekday stays where it is, so
 * {@code +1 DAY, WEEKDAY 1} is needed for "the next Monday after today".
 */
public record Weekday(int day) implements Modifier {

    public Weekday {
        if (day < 0 || day > 6) {
            throw new RepeatSyntaxException("WEEKDAY takes a day from 0 (Sunday) to 6 (Saturday)",
                    "WEEKDAY " + day, RepeatExamples.WEEKDAY);
        }
    }

    @Override
    public String normalized() {
        return "WEEKDAY " + day;
    }

    @Override
    public long applyTo(long epochMillis) {
        int today = Timeline.toDateTime(epochMillis).getDayOfWeek().getValue() % 7;
        return epochMillis + Math.floorMod(day - today, 7) * Timeline.MILLIS_PER_DAY;
    }
}
