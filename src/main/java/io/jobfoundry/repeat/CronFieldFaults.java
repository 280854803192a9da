package io.jobfoundry.repeat;

import java.util.List;

/**
 * What is wrong with a cron field the parser refused, where it can be said more plainly than by
 * the field's range alone: a step of zero, a range written high to low. Read only after a refusal,
 * on the field as the client wrote it (upper case), so it never decides what is accepted.
 */
final class CronFieldFaults {

    private static final List<String> MONTHS = List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG",
            "SEP", "OCT", "NOV", "DEC");
    private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");
    private static final int MONTH = 3;
    private static final int DAY_OF_WEEK = 4;

    private CronFieldFaults() {
    }

    /** @return the fault, said for a reader ("a step of 0 never moves on"), or null if none of these */
    static String of(int field, String text) {
        for (String item : text.split(",", -1)) {
            int slash = item.indexOf('/');
            if (slash >= 0 && item.substring(slash + 1).matches("0+")) {
                return "a step of 0 never moves on: '" + item + "'";
            }
            String range = slash < 0 ? item : item.substring(0, slash);
            int dash = range.indexOf('-');
            if (dash > 0) {
                Integer from = value(field, range.substring(0, dash), false);
                Integer to = value(field, range.substring(dash + 1), true);
                if (from != null && to != null && from > to) {
                    return "a range runs from low to high: '" + range + "'"
                            + (field == DAY_OF_WEEK ? " (the week runs from SUN or 0 to SAT or 7)" : "");
                }
            }
        }
        return null;
    }

    /** A number, or a month or day name, as the field counts it; SUN at a range's end is 7. */
    private static Integer value(int field, String text, boolean end) {
        if (text.matches("\\d{1,9}")) {
            return Integer.valueOf(text);
        }
        if (field == MONTH && MONTHS.contains(text)) {
            return MONTHS.indexOf(text) + 1;
        }
        if (field == DAY_OF_WEEK && DAYS.contains(text)) {
            return text.equals("SUN") && end ? 7 : DAYS.indexOf(text);
        }
        return null;
    }
}
