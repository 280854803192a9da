package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Requests, including refused ones, write nothing at INFO or above: a busy service's log holds what
 * operators act on (monitor actions, store trouble, bugs), not one line per call.
 */
@QuarkusTest
class RequestLoggingTest {

    @Test
    void aWholeJobFlowAndItsClientErrorsLogNothingAtInfo() {
        List<String> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.INFO.intValue()) {
                    logged.add(record.getLoggerName() + ": " + record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        try {
            org.jboss.logging.Logger.getLogger(RequestLoggingTest.class).info("probe");
            assertEquals(List.of(RequestLoggingTest.class.getName() + ": probe"), logged, "the capture sees INFO");
            logged.clear();
            String type = Api.type("quiet");
            Api.put(type, "a", "{\"data\":{\"n\":1}}").statusCode(201);
            String lease = Api.acceptOne(type);
            Api.heartbeat(type, "a", Api.lease(lease)).statusCode(200);
            Api.finish(type, "a", Api.succeeded(lease)).statusCode(200);
            Api.get(type, "a").statusCode(200);
            Api.get(type, "missing").statusCode(404);
            Api.put(type, "b", "{\"nope\":1}").statusCode(400);
            Api.heartbeat(type, "a", Api.lease(lease)).statusCode(409);
            given().get("/v1/types/{type}", type).then().statusCode(200);
            given().get("/no/such/path").then().statusCode(404);
        } finally {
            root.removeHandler(capture);
        }
        assertEquals(List.of(), logged);
    }
}
