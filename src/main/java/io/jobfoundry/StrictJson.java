package io.jobfoundry;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.Locale;

/**
 * The one reader of JSON that comes from outside and may become a job's data: request bodies
 * (the API) and push targets' answers (push delivery). Strict, so that what one path takes the
 * other would too: no duplicate members, nothing after the value, numbers exact and as written.
 */
public final class StrictJson {

    public static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // Numbers keep their exact value (1e400 must not become Infinity, 0.1 must stay 0.1)...
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            // ...and their spelling (100.0 must not turn into 1E+2 in the stored data).
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private StrictJson() {
    }

    /**
     * Whether {@code contentType} declares JSON: {@code application/json} or an {@code application/…+json}
     * type, with any parameters. A request body must be declared so to be read, and a push target's answer
     * to become a job's data.
     */
    public static boolean declaresJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int parameters = contentType.indexOf(';');
        String type = (parameters < 0 ? contentType : contentType.substring(0, parameters)).trim()
                .toLowerCase(Locale.ROOT);
        return type.equals("application/json") || type.startsWith("application/") && type.endsWith("+json");
    }
}
