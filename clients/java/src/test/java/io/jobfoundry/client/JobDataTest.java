package io.jobfoundry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Date;
import org.junit.jupiter.api.Test;

/** Job data as the application's own classes, through the create body and back with {@code dataAs}. */
class JobDataTest {

    record Invoice(String number, Instant issuedAt, LocalDate due) {
    }

    @Test
    void javaTimeMembersTravelAsIsoTextWhenTheModuleIsOnTheClassPath() throws Exception {
        Invoice invoice = new Invoice("F-17", Instant.parse("2026-11-28T09:30:00Z"), LocalDate.parse("2026-12-31"));
        try (StubService stub = new StubService(r -> {
            JsonNode sent = Json.MAPPER.readTree(r.body());
            return StubService.Reply.json(201, StubService.job("invoice", "F-17", "pending")
                    .replace("\"data\":null", "\"data\":" + sent.get("data")));
        })) {
            Job created = JobfoundryClient.create(stub.url()).create("invoice", JobSpec.withData(invoice));

            assertEquals(Json.MAPPER.readTree(
                    "{\"data\":{\"number\":\"F-17\",\"issuedAt\":\"2026-11-28T09:30:00Z\",\"due\":\"2026-12-31\"}}"),
                    Json.MAPPER.readTree(stub.requests.get(0).body()));
            assertEquals(invoice, created.dataAs(Invoice.class));
        }
    }

    @Test
    void aDateIsWrittenAsTextToo() {
        assertEquals("2026-11-28T09:30:00.000+00:00",
                Json.toNode(new Stamp(Date.from(Instant.parse("2026-11-28T09:30:00Z")))).get("at").asText());
    }

    record Stamp(Date at) {
    }
}
