package io.jobfoundry.push;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.jobfoundry.jobs.model.Job;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a push call sends (docs/api.md, "Push delivery"): the body {@code {"type","id","data",
 * "attempt","scheduledAt"}} and the headers, signed when a secret is configured. {@code attempt}
 * is the job's own: failed attempts of the run before this one.
 */
record PushMessage(byte[] body, Map<String, String> headers) {

    static final String SIGNATURE = "Jobfoundry-Signature";
    private static final JsonFactory JSON = new JsonFactory();
    private static final String HEX = "0123456789ABCDEF";

    /**
     * An id as a header can carry it: a header value is bytes, and a character outside visible
     * ASCII would be sent as {@code ?} or as a byte a receiver decodes its own way, and a space at
     * either end is trimmed by receivers, so two ids could arrive as one. Those characters, spaces
     * and {@code %} (so that decoding is unambiguous) are percent-encoded as UTF-8; an id of visible
     * ASCII without {@code %} goes as it is. The body carries the id unencoded.
     */
    static String headerText(String id) {
        StringBuilder text = new StringBuilder(id.length());
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c > 0x20 && c < 0x7f && c != '%') {
                text.append(c);
                continue;
            }
            int end = Character.isHighSurrogate(c) && i + 1 < id.length() ? i + 2 : i + 1;
            for (byte b : id.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                text.append('%').append(HEX.charAt((b >> 4) & 0xF)).append(HEX.charAt(b & 0xF));
            }
            i = end - 1;
        }
        return text.toString();
    }

    /**
     * @param secret  the signing key, or null for none
     * @param seconds the signature's time, Unix seconds
     */
    static PushMessage of(Job job, byte[] secret, long seconds) {
        byte[] body = body(job);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Jobfoundry-Type", job.type());
        headers.put("Jobfoundry-Id", headerText(job.id()));
        headers.put("Jobfoundry-Attempt", Integer.toString(job.attempt()));
        if (secret != null) {
            headers.put(SIGNATURE, signature(secret, seconds, body));
        }
        return new PushMessage(body, headers);
    }

    private static byte[] body(Job job) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + (job.data() == null ? 0 : job.data().length()));
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("type", job.type());
            json.writeStringField("id", job.id());
            json.writeFieldName("data");
            if (job.data() == null) {
                json.writeNull();
            } else {
                json.writeRawValue(job.data()); // stored as the JSON text it came in as
            }
            json.writeNumberField("attempt", job.attempt());
            json.writeStringField("scheduledAt", job.scheduledAt() == null ? null
                    : DateTimeFormatter.ISO_INSTANT.format(job.scheduledAt()));
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // into memory: cannot happen
        }
        return out.toByteArray();
    }

    /** {@code t=<seconds>,v1=<hex HMAC-SHA256 of "<seconds>.<body>">}: the time is signed, so a captured call cannot be replayed as new. */
    static String signature(byte[] secret, long seconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update((seconds + ".").getBytes(StandardCharsets.US_ASCII));
            return "t=" + seconds + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
