package io.jobfoundry.repeat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Turns repeat text into a {@link Repeat}; the grammar is on {@link Repeat}.
 *
 * <p>Works on the text as written (ASCII only, checked first) and compares case-insensitively, so
 * that errors quote the client's own spelling.
 */
public final class RepeatParser {

    static final int MAX_LENGTH = 1024;


    private RepeatParser() {
    }

    /**
     * @param input a repeat expression, at most 1024 characters; the grammar is on {@link Repeat}
     * @throws RepeatSyntaxException if it does not follow the grammar
     */
    public static Repeat parse(String input) {
        Objects.requireNonNull(input, "input");
        if (input.length() > MAX_LENGTH) {
            throw new RepeatSyntaxException("repeat longer than " + MAX_LENGTH + " characters", input, RepeatExamples.GENERAL);
        }
        for (int i = 0; i < input.length(); i++) {
            char c = input.charAt(i);
            if (!(c >= 0x20 && c < 0x7f) && !isSpace(c)) {
                // Non-ASCII would let Unicode case mapping smuggle in look-alikes ("ſ" upper-cases to "S").
                throw new RepeatSyntaxException("unexpected character (only printable ASCII is allowed)",
                        String.valueOf(c), RepeatExamples.GENERAL);
            }
        }
        String text = trim(input);
        if (text.isEmpty()) {
            throw new RepeatSyntaxException("empty repeat", input, RepeatExamples.GENERAL);
        }
        List<String> words = words(text);
        if (CronZone.names(words.get(0))) {
            // robfig/cron's "CRON_TZ=Europe/Berlin 0 9 * * *", whole: here every cron repeat says CRON first.
            throw new RepeatSyntaxException("a cron repeat starts with CRON, its time zone after it: CRON " + text,
                    words.get(0), CronZone.EXAMPLES);
        }
        if (words.get(0).equalsIgnoreCase("CRON")) {
            // Before splitting on commas: cron lists ("1,15") use them.
            List<String> rest = words.subList(1, words.size());
            CronZone zone = null;
            if (!rest.isEmpty() && CronZone.names(rest.get(0))) {
                zone = CronZone.parse(rest.get(0));
                rest = rest.subList(1, rest.size());
            }
            for (String word : rest) {
                if (CronZone.names(word)) {
                    throw new RepeatSyntaxException("a cron repeat names its time zone once, right after CRON", word,
                            CronZone.EXAMPLES);
                }
            }
            List<String> fields = new ArrayList<>(rest.size());
            for (String field : rest) {
                fields.add(field.toUpperCase(Locale.ROOT));
            }
            return CronRepeat.of(fields, zone, text);
        }
        String[] parts = text.split(",", -1);
        if (parts.length == 1) {
            return single(text);
        }
        String baseText = trim(parts[0]);
        Base base = base(baseText);
        List<Modifier> modifiers = new ArrayList<>(parts.length - 1);
        for (int i = 1; i < parts.length; i++) {
            modifiers.add(modifier(trim(parts[i]), text));
        }
        return new ModifierRepeat(base, modifiers);
    }

    /** No comma: a canned name, or a base someone forgot to give a modifier. */
    private static Repeat single(String text) {
        String name = text.toUpperCase(Locale.ROOT);
        return switch (name) {
            case "HOURLY" -> new ModifierRepeat(Base.FINISHED, List.of(new Offset(BigDecimal.ONE, Unit.HOUR)));
            case "DAILY" -> new ModifierRepeat(Base.FINISHED, List.of(new Offset(BigDecimal.ONE, Unit.DAY)));
            case "WEEKLY" -> new ModifierRepeat(Base.FINISHED, List.of(new Offset(BigDecimal.valueOf(7), Unit.DAY)));
            case "SCHEDULED", "STARTED", "FINISHED" -> throw new RepeatSyntaxException(
                    "a repeat needs at least one modifier after its base", text, RepeatExamples.BASE);
            default -> throw unknownBase(text, "unknown repeat base or canned name");
        };
    }

    private static Base base(String text) {
        return switch (text.toUpperCase(Locale.ROOT)) {
            case "SCHEDULED" -> Base.SCHEDULED;
            case "STARTED" -> Base.STARTED;
            case "FINISHED" -> Base.FINISHED;
            case "HOURLY", "DAILY", "WEEKLY" -> throw new RepeatSyntaxException(
                    "a canned repeat takes no modifiers", text, RepeatExamples.BASE);
            case "" -> throw new RepeatSyntaxException("missing base before the first comma", text, RepeatExamples.BASE);
            default -> throw unknownBase(text, "unknown repeat base");
        };
    }

    private static RepeatSyntaxException unknownBase(String text, String message) {
        String firstWord = words(text).get(0).toUpperCase(Locale.ROOT);
        if (!firstWord.equals(text.toUpperCase(Locale.ROOT))
                && (firstWord.equals("SCHEDULED") || firstWord.equals("STARTED") || firstWord.equals("FINISHED"))) {
            return new RepeatSyntaxException("a comma must follow the base", text, RepeatExamples.BASE);
        }
        return new RepeatSyntaxException(message, text, RepeatExamples.BASE);
    }

    private static Modifier modifier(String text, String whole) {
        if (text.isEmpty()) {
            throw new RepeatSyntaxException("empty modifier (a trailing or double comma)", whole, RepeatExamples.MODIFIER);
        }
        char first = text.charAt(0);
        if (first == '+' || first == '-' || isDigit(first)) {
            return offset(text);
        }
        List<String> words = words(text);
        String keyword = words.get(0).toUpperCase(Locale.ROOT);
        if (keyword.equals("START")) {
            return startOf(text, words);
        }
        if (keyword.equals("WEEKDAY")) {
            return weekday(text, words);
        }
        throw new RepeatSyntaxException("unknown modifier", text, RepeatExamples.MODIFIER);
    }

    /** {@code [+|-] [space] digits[.digits] space unit}; the space after the sign is Bedrock's habit. */
    private static Offset offset(String text) {
        int i = 0;
        boolean negative = false;
        if (text.charAt(0) == '+' || text.charAt(0) == '-') {
            negative = text.charAt(0) == '-';
            i = skipSpace(text, 1);
        }
        int numberStart = i;
        i = skipDigits(text, i);
        boolean wholeDigits = i > numberStart;
        if (wholeDigits && i < text.length() && text.charAt(i) == '.') {
            int fractionStart = i + 1;
            i = skipDigits(text, fractionStart);
            wholeDigits = i > fractionStart;
        }
        if (!wholeDigits || i == text.length() || !isSpace(text.charAt(i))) {
            // Also refuses NaN, Infinity, exponents (1e3) and bare points (.5, 1.), which SQLite
            // accepts only in part.
            throw new RepeatSyntaxException("expected a number such as 1 or 1.5, then a space and a unit", text,
                    RepeatExamples.OFFSET);
        }
        BigDecimal amount = new BigDecimal(text.substring(numberStart, i));
        Unit unit = Unit.named(text.substring(skipSpace(text, i)).toUpperCase(Locale.ROOT));
        if (unit == null) {
            throw new RepeatSyntaxException(
                    "unknown unit (SECOND, MINUTE, HOUR, DAY, MONTH or YEAR, singular or plural)", text, RepeatExamples.OFFSET);
        }
        return new Offset(negative ? amount.negate() : amount, unit);
    }

    private static StartOf startOf(String text, List<String> words) {
        if (words.size() == 3 && words.get(1).equalsIgnoreCase("OF")) {
            switch (words.get(2).toUpperCase(Locale.ROOT)) {
                case "DAY":
                    return StartOf.DAY;
                case "MONTH":
                    return StartOf.MONTH;
                case "YEAR":
                    return StartOf.YEAR;
                case "WEEK":
                    throw new RepeatSyntaxException("SQLite has no START OF WEEK; combine WEEKDAY N and START OF DAY",
                            text, RepeatExamples.START_OF);
                default:
                    break;
            }
        }
        throw new RepeatSyntaxException("expected START OF DAY, MONTH or YEAR", text, RepeatExamples.START_OF);
    }

    private static Weekday weekday(String text, List<String> words) {
        if (words.size() == 2 && words.get(1).length() == 1 && words.get(1).charAt(0) >= '0'
                && words.get(1).charAt(0) <= '6') {
            return new Weekday(words.get(1).charAt(0) - '0');
        }
        throw new RepeatSyntaxException("WEEKDAY takes a day from 0 (Sunday) to 6 (Saturday)", text, RepeatExamples.WEEKDAY);
    }

    /** SQLite's isspace(): space, tab, newline, vertical tab, form feed, carriage return. */
    private static boolean isSpace(char c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static int skipSpace(String text, int from) {
        int i = from;
        while (i < text.length() && isSpace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int skipDigits(String text, int from) {
        int i = from;
        while (i < text.length() && isDigit(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static String trim(String text) {
        int start = skipSpace(text, 0);
        int end = text.length();
        while (end > start && isSpace(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(start, end);
    }

    /** The whitespace-separated words of a trimmed, non-empty text. */
    private static List<String> words(String text) {
        List<String> words = new ArrayList<>(4);
        int i = 0;
        while (i < text.length()) {
            int end = i;
            while (end < text.length() && !isSpace(text.charAt(end))) {
                end++;
            }
            words.add(text.substring(i, end));
            i = skipSpace(text, end);
        }
        return words;
    }
}
