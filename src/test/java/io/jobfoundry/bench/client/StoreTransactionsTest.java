package io.jobfoundry.bench.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class StoreTransactionsTest {

    @Test
    void sumsTheCounterOverItsLabelSets() {
        String exposition = """
                # HELP jobfoundry_store_transactions_total Committed store transactions
                # TYPE jobfoundry_store_transactions_total counter
                jobfoundry_store_transactions_total{kind="read write",store="embedded"} 120.0
                jobfoundry_store_transactions_total{kind="read only",store="embedded"} 30.0 1700000000000
                jobfoundry_store_transactions_totally_other 5.0
                http_server_requests_seconds_count 7.0
                """;
        assertEquals(OptionalDouble.of(150.0), StoreTransactions.parse(exposition));
    }

    @Test
    void readsTheCounterWithoutLabels() {
        assertEquals(OptionalDouble.of(42.0), StoreTransactions.parse("jobfoundry_store_transactions_total 42\n"));
    }

    @Test
    void isEmptyWhereTheServiceHasNoSuchCounter() {
        assertTrue(StoreTransactions.parse("http_server_requests_seconds_count 7.0\n").isEmpty());
        assertEquals("n/a", StoreTransactions.format(OptionalDouble.empty()));
    }
}
