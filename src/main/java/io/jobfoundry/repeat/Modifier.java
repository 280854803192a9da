package io.jobfoundry.repeat;

/**
 * One step of a {@link ModifierRepeat}: SQLite's {@code datetime()} modifier of the same text.
 *
 * <p>Every step maps a UTC time in whole milliseconds to another one, exactly as SQLite's date.c
 * does; the result may be outside the {@link Timeline} range, which the caller checks.
 */
public sealed interface Modifier permits Offset, StartOf, Weekday {

    /** The canonical text, also valid SQLite modifier text: {@code +1.5 HOURS}, {@code START OF DAY}. */
    String normalized();

    long applyTo(long epochMillis);
}
