package io.jobfoundry.repeat;

/**
 * The units of an {@link Offset}, with SQLite's constants for them ({@code aXformType} in date.c).
 *
 * <p>Both constants are C {@code float}s there, and the arithmetic widens them to {@code double};
 * they are {@code float} here too so that the limit comparison and the millisecond product are the
 * same to the last bit. The factor is what one unit is worth in seconds when added as an exact
 * duration: a month's fraction counts 30 days and a year's fraction 365 days.
 */
public enum Unit {
    SECOND(1.0f, 4.6427e+14f),
    MINUTE(60.0f, 7.7379e+12f),
    HOUR(3600.0f, 1.2897e+11f),
    DAY(86400.0f, 5373485.0f),
    MONTH(2592000.0f, 176546.0f),
    YEAR(31536000.0f, 14713.0f);

    private final float secondsFactor;
    private final float limit;

    Unit(float secondsFactor, float limit) {
        this.secondsFactor = secondsFactor;
        this.limit = limit;
    }

    double secondsFactor() {
        return secondsFactor;
    }

    /** SQLite refuses an amount unless {@code -limit < amount < limit}. */
    boolean accepts(double amount) {
        return amount > -limit && amount < limit;
    }

    /** SQLite takes the unit in either number, and so do we; we write the one English wants. */
    String label(boolean singular) {
        return singular ? name() : name() + "S";
    }

    /** The unit named by an upper-case word, singular or plural, or null. */
    static Unit named(String word) {
        String singular = word.endsWith("S") ? word.substring(0, word.length() - 1) : word;
        for (Unit unit : values()) {
            if (unit.name().equals(singular)) {
                return unit;
            }
        }
        return null;
    }
}
