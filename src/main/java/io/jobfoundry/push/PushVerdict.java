package io.jobfoundry.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.jobfoundry.StrictJson;
import io.jobfoundry.Texts;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.TypeSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * How a push call ended, as the finish it makes (docs/api.md, "Push delivery"): a {@code 2xx}
 * succeeded, a JSON object answer becoming the job's data; {@code 429} and {@code 503} with
 * {@code Retry-After} a failed attempt due no sooner than that; anything else a failed attempt
 * whose {@code lastError} names the status or the error.
 *
 * @param notBefore when a failed attempt's retry may be due at the earliest, or null
 * @param outcome   the metrics' outcome tag
 */
record PushVerdict(boolean succeeded, Change<String> data, String error, Instant notBefore, String outcome) {

    /** How much of a refusing answer's body goes into {@code lastError}: enough to say why. */
    private static final int ERROR_BODY_CHARS = 200;
    /** Read as the API reads a body (numbers keep their value: 1e400 stays 1E+400, 1.50 its scale). */
    private static final JsonMapper JSON = StrictJson.MAPPER;

    /** An asctime date, {@code Sun Nov  6 08:49:37 1994}: the day space-padded, in GMT. */
    private static final DateTimeFormatter ASCTIME = new DateTimeFormatterBuilder()
            .appendPattern("EEE MMM ppd HH:mm:ss yyyy").toFormatter(Locale.US).withZone(ZoneOffset.UTC);

    /**
     * @param contentType the answer's {@code Content-Type}, or null: only an answer declared JSON
     *     can become data, as only a request body declared JSON is read; a function's plain-text
     *     {@code {"message":"ok"}} must not replace a recurring job's data
     */
    static PushVerdict answered(int status, String retryAfter, String contentType, byte[] body, Instant now) {
        String outcome = PushMetrics.statusClass(status);
        if (status >= 200 && status < 300) {
            return new PushVerdict(true, StrictJson.declaresJson(contentType) ? dataOf(body) : Change.keep(), null, null, outcome);
        }
        String error = "push target answered " + status;
        if (status >= 300 && status < 400) {
            error += " (redirects are not followed)";
        }
        Instant notBefore = status == 429 || status == 503 ? retryAfter(retryAfter, now) : null;
        if (notBefore != null) {
            error += "; Retry-After " + retryAfter.trim();
        }
        String text = new String(body, StandardCharsets.UTF_8).strip();
        if (!text.isEmpty()) {
            // Cut by code points: half a surrogate pair is no text the store can keep.
            String start = Texts.truncate(text, ERROR_BODY_CHARS);
            error += ": " + (start.length() < text.length() ? start + "…" : text);
        }
        return new PushVerdict(false, Change.keep(), error, notBefore, outcome);
    }

    static PushVerdict timedOut(Duration timeout) {
        return failed("push target did not answer within " + TypeSettings.seconds(timeout).toPlainString() + " s",
                "timeout");
    }

    static PushVerdict tooLarge(int status, int maxBytes) {
        return failed("push target answered " + status + " with more than " + maxBytes + " bytes", "error");
    }

    static PushVerdict unreachable(Throwable failure) {
        String what = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return failed("push call failed: " + what, "error");
    }

    static PushVerdict failed(String error, String outcome) {
        return new PushVerdict(false, Change.keep(), error, null, outcome);
    }

    /**
     * A JSON object answer is the job's new data, compact, read as strictly as a processor's finish
     * (no duplicate members, numbers that fit a BigDecimal, valid Unicode): data a worker is handed
     * must be data it can send back. Anything else (empty, text, an array, an object the API would
     * refuse) leaves the data as it was.
     */
    private static Change<String> dataOf(byte[] body) {
        if (body.length == 0) {
            return Change.keep();
        }
        try {
            JsonNode node = JSON.readTree(body);
            return node != null && node.isObject() && validUnicode(node) ? Change.to(JSON.writeValueAsString(node))
                    : Change.keep();
        } catch (IOException | RuntimeException e) {
            // Jackson lets BigDecimal's refusal of an exponent beyond its range escape unwrapped.
            return Change.keep();
        }
    }

    /** No member name or string holds an unpaired surrogate (from an escape, or from bytes that were no UTF-8). */
    private static boolean validUnicode(JsonNode node) {
        if (node.isTextual()) {
            return !Texts.hasLoneSurrogate(node.textValue());
        }
        for (Iterator<Map.Entry<String, JsonNode>> members = node.fields(); members.hasNext();) {
            Map.Entry<String, JsonNode> member = members.next();
            if (Texts.hasLoneSurrogate(member.getKey()) || !validUnicode(member.getValue())) {
                return false;
            }
        }
        if (node.isArray()) {
            for (JsonNode element : node) {
                if (!validUnicode(element)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Retry-After as delay-seconds or an HTTP date; null if absent, unreadable or past; at most 365 days on. */
    static Instant retryAfter(String header, Instant now) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String value = header.trim();
        Instant at;
        if (value.chars().allMatch(Character::isDigit)) {
            long seconds = value.length() > 9 ? Long.MAX_VALUE : Long.parseLong(value);
            at = seconds >= TypeSettings.LONGEST.toSeconds() ? now.plus(TypeSettings.LONGEST) : now.plusSeconds(seconds);
        } else {
            at = httpDate(value, now);
            if (at == null) {
                return null;
            }
            if (at.isAfter(now.plus(TypeSettings.LONGEST))) {
                at = now.plus(TypeSettings.LONGEST);
            }
        }
        return at.isAfter(now) ? at : null;
    }

    /**
     * An HTTP date in any of the three forms a recipient must read (RFC 9110, 5.6.7): IMF-fixdate
     * ({@code Sun, 06 Nov 1994 08:49:37 GMT}), RFC 850 ({@code Sunday, 06-Nov-94 08:49:37 GMT}, its
     * two-digit year the one within 50 years of {@code now}) or asctime; null if it is none of them.
     */
    static Instant httpDate(String value, Instant now) {
        try {
            return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException notImfFixdate) {
            // try the obsolete forms
        }
        LocalDate fiftyYearsAgo = now.atOffset(ZoneOffset.UTC).toLocalDate().minusYears(50);
        DateTimeFormatter rfc850 = new DateTimeFormatterBuilder().appendPattern("EEEE, dd-MMM-")
                .appendValueReduced(ChronoField.YEAR, 2, 2, fiftyYearsAgo).appendPattern(" HH:mm:ss 'GMT'")
                .toFormatter(Locale.US).withZone(ZoneOffset.UTC);
        for (DateTimeFormatter form : new DateTimeFormatter[] {rfc850, ASCTIME}) {
            try {
                return ZonedDateTime.parse(value, form).toInstant();
            } catch (DateTimeParseException notThisForm) {
                // the next
            }
        }
        return null;
    }
}
