package io.jobfoundry.push;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.TypeSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

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
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    static PushVerdict answered(int status, String retryAfter, byte[] body, Instant now) {
        String outcome = PushMetrics.statusClass(status);
        if (status >= 200 && status < 300) {
            return new PushVerdict(true, dataOf(body), null, null, outcome);
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
            error += ": " + (text.length() > ERROR_BODY_CHARS ? text.substring(0, ERROR_BODY_CHARS) + "…" : text);
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

    /** A JSON object answer is the job's new data; anything else (empty, text, an array) leaves it. */
    private static Change<String> dataOf(byte[] body) {
        if (body.length == 0) {
            return Change.keep();
        }
        String text = new String(body, StandardCharsets.UTF_8);
        try {
            JsonNode node = JSON.readTree(text);
            return node != null && node.isObject() ? Change.to(text.strip()) : Change.keep();
        } catch (JsonProcessingException e) {
            return Change.keep();
        }
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
            try {
                at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            } catch (DateTimeParseException e) {
                return null;
            }
            if (at.isAfter(now.plus(TypeSettings.LONGEST))) {
                at = now.plus(TypeSettings.LONGEST);
            }
        }
        return at.isAfter(now) ? at : null;
    }
}
