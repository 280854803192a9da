package io.jobfoundry.repeat;

import java.time.LocalDateTime;

/** {@code START OF DAY|MONTH|YEAR}: back to midnight of the day, the 1st of the month, 1 January. */
public enum StartOf implements Modifier {
    DAY,
    MONTH,
    YEAR;

    @Override
    public String normalized() {
        return "START OF " + name();
    }

    @Override
    public long applyTo(long epochMillis) {
        LocalDateTime time = Timeline.toDateTime(epochMillis);
        LocalDateTime start = switch (this) {
            case DAY -> time.toLocalDate().atStartOfDay();
            case MONTH -> time.toLocalDate().withDayOfMonth(1).atStartOfDay();
            case YEAR -> time.toLocalDate().withDayOfYear(1).atStartOfDay();
        };
        return Timeline.toMillis(start);
    }
}
