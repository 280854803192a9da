package io.jobfoundry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TransportTest {

    private static final RetryPolicy FAST = new RetryPolicy(5, Duration.ofMillis(10), Duration.ofMillis(50));
    private static final String UNAVAILABLE = "{\"type\":\"tag:jobfoundry.io,2026:problem/store-unavailable\","
            + "\"title\":\"Store unavailable\",\"status\":503,\"detail\":\"the store did not answer in time\"}";

    @Test
    void a503IsRetriedWithBackoffUntilTheServiceAnswers() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (StubService stub = new StubService(r -> calls.incrementAndGet() <= 2
                ? StubService.Reply.problem(503, UNAVAILABLE) : StubService.Reply.json(200, StubService.job("t", "a", "pending")))) {
            JobfoundryClient client = JobfoundryClient.builder(stub.url()).retryPolicy(FAST).build();
            Job job = client.get("t", "a").orElseThrow();
            assertEquals("a", job.id());
            assertEquals(3, stub.requests.size());
        }
    }

    @Test
    void aWaitRepeatedAfterA503AsksForWhatIsLeftOfIt() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (StubService stub = new StubService(r -> {
            if (calls.incrementAndGet() == 1) {
                Thread.sleep(500); // the service took a while to say it was unavailable
                return StubService.Reply.problem(503, UNAVAILABLE);
            }
            return StubService.Reply.json(200, StubService.job("t", "a", "running"));
        })) {
            JobfoundryClient client = JobfoundryClient.builder(stub.url()).retryPolicy(FAST).build();
            client.waitFor("t", "a", JobState.FINISHED, Duration.ofSeconds(2));
            List<Long> asked = stub.requests.stream().limit(2)
                    .map(r -> Long.parseLong(r.path().substring(r.path().indexOf("timeout=") + "timeout=".length())))
                    .toList();
            assertTrue(asked.get(0) >= 1900, asked.toString());
            assertTrue(asked.get(1) <= 1550, "the repeat asked for the whole wait again: " + asked);
        }
    }

    @Test
    void retryAfterIsHonouredUpToTheCap() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (StubService stub = new StubService(r -> calls.incrementAndGet() == 1
                ? new StubService.Reply(503, "application/problem+json", UNAVAILABLE, Map.of("Retry-After", "1"))
                : StubService.Reply.json(200, StubService.job("t", "a", "pending")))) {
            RetryPolicy policy = new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(400));
            JobfoundryClient client = JobfoundryClient.builder(stub.url()).retryPolicy(policy).build();
            long start = System.nanoTime();
            client.get("t", "a");
            long millis = (System.nanoTime() - start) / 1_000_000;
            // Without Retry-After the policy would wait about a millisecond; Retry-After: 1 asks for a second,
            // of which the policy's cap grants 400 ms (RetryPolicyTest checks the exact figure).
            assertTrue(millis >= 400, "waited " + millis + " ms");
        }
    }

    @Test
    void persistent503EndsAsAProblemAfterTheLastAttempt() throws Exception {
        try (StubService stub = new StubService(r -> StubService.Reply.problem(503, UNAVAILABLE))) {
            JobfoundryClient client = JobfoundryClient.builder(stub.url()).retryPolicy(FAST).build();
            ProblemException e = assertThrows(ProblemException.class, () -> client.cancel("t", "a"));
            assertEquals(503, e.status());
            assertEquals("the store did not answer in time", e.detail());
            assertEquals(5, stub.requests.size());
        }
    }

    /** A bulk action repeated after it took effect would change more jobs: not repeated. */
    @Test
    void bulkActionsAreNotRepeatedAfterA503() throws Exception {
        try (StubService stub = new StubService(r -> StubService.Reply.problem(503, UNAVAILABLE))) {
            JobfoundryClient client = JobfoundryClient.builder(stub.url()).retryPolicy(FAST).build();
            assertThrows(ProblemException.class,
                    () -> client.operations().bulk(BulkAction.REMOVE, JobFilter.type("t"), 100));
            assertEquals(1, stub.requests.size());
            // Pausing twice is pausing: repeated.
            assertThrows(ProblemException.class, () -> client.operations().pause("t"));
            assertEquals(1 + 5, stub.requests.size());
        }
    }

    /**
     * A PUT, a resubmit and a batch of named jobs may have made a job pending that a worker took before the
     * repeat: each call sends a key of its own, the same with every repeat, which the service recognizes.
     */
    @Test
    void putsResubmitsAndNamedBatchesAreRepeatedUnderOneKeyPerCall() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        String job = StubService.job("t", "a", "running");
        String batch = "{\"jobs\":[{\"status\":200,\"job\":" + job + "}]}";
        try (StubService stub = new StubService(r -> calls.incrementAndGet() % 3 != 0
                ? StubService.Reply.problem(503, UNAVAILABLE)
                : StubService.Reply.json(200, r.path().equals("/v1/jobs") ? batch : job))) {
            JobfoundryClient client = JobfoundryClient.builder(stub.url()).retryPolicy(FAST).build();
            client.put("t", "a", JobSpec.empty());
            client.put("t", "a", JobSpec.empty());
            client.resubmit("t", "a", null);
            client.createBatch(List.of(new NewJob("t", "a", JobSpec.empty())));
            assertEquals(12, stub.requests.size());
            List<String> keys = stub.requests.stream().map(r -> r.header("Idempotency-Key")).toList();
            for (int call = 0; call < 4; call++) {
                String key = keys.get(3 * call);
                assertTrue(key != null && key.matches("[0-9a-f-]{36}"), "a UUID: " + key);
                assertEquals(List.of(key, key, key), keys.subList(3 * call, 3 * call + 3), "one key per call");
            }
            assertEquals(4, keys.stream().distinct().count(), "a new key for each call: " + keys);
        }
    }

    /** The service refuses a key for a batch with an item without id: sent without one, and not repeated. */
    @Test
    void aBatchWithAnItemWithoutIdIsSentWithoutAKeyAndNotRepeated() throws Exception {
        try (StubService stub = new StubService(r -> StubService.Reply.problem(503, UNAVAILABLE))) {
            JobfoundryClient client = JobfoundryClient.builder(stub.url()).retryPolicy(FAST).build();
            assertThrows(ProblemException.class, () -> client.createBatch(List.of(
                    new NewJob("t", "a", JobSpec.empty()), new NewJob("t", null, JobSpec.empty()))));
            assertEquals(1, stub.requests.size());
            assertEquals(null, stub.requests.get(0).header("Idempotency-Key"));
        }
    }

    /** A preview and {@code /v1/me} change nothing: repeated after a 503 like a read. */
    @Test
    void aRepeatPreviewAndMeAreRepeatedAfterA503() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (StubService stub = new StubService(r -> calls.incrementAndGet() % 2 == 1 ? StubService.Reply.problem(503, UNAVAILABLE)
                : r.path().equals("/v1/me") ? StubService.Reply.json(200, "{\"name\":\"email-team\",\"roles\":[\"viewer\"],\"types\":[\"email*\",\"sms\"]}")
                : StubService.Reply.json(200, "{\"normalized\":\"DAILY\",\"next\":[\"2026-03-02T00:00:00Z\"]}"))) {
            JobfoundryClient client = JobfoundryClient.builder(stub.url()).retryPolicy(FAST).build();
            assertEquals(new RepeatPreview("DAILY", List.of(Instant.parse("2026-03-02T00:00:00Z"))),
                    client.previewRepeat("daily", Instant.parse("2026-03-01T10:00:00Z"), 1));
            assertEquals("{\"repeat\":\"daily\",\"count\":1,\"scheduledAt\":\"2026-03-01T10:00:00Z\","
                    + "\"startedAt\":\"2026-03-01T10:00:00Z\",\"finishedAt\":\"2026-03-01T10:00:00Z\"}", stub.requests.get(1).body());
            assertEquals(new Identity("email-team", List.of("viewer"), List.of("email*", "sms")), client.operations().me());
            assertEquals(4, stub.requests.size());
        }
    }

    @Test
    void anEventStreamIsOpenedAgainAfterA503AndAPageThatIsNotOneIsRefused() throws Exception {
        String stream = "event: state\ndata: " + StubService.job("t", "a", "pending") + "\n\n"
                + "event: removed\ndata: {\"type\":\"t\",\"id\":\"a\"}\n\n";
        AtomicInteger calls = new AtomicInteger();
        try (StubService stub = new StubService(r -> calls.incrementAndGet() == 1
                ? StubService.Reply.problem(503, UNAVAILABLE)
                : new StubService.Reply(200, "text/event-stream", stream, Map.of()))) {
            JobfoundryClient client = JobfoundryClient.builder(stub.url()).retryPolicy(FAST).build();
            try (var events = client.events("t", "a")) {
                assertEquals(java.util.List.of(false, true), events.map(JobEvent::removed).toList());
            }
            assertEquals(2, stub.requests.size());
            assertEquals("text/event-stream", stub.requests.get(1).header("Accept"));
            for (Duration bad : java.util.Arrays.asList(Duration.ZERO, Duration.ofSeconds(-1), null)) {
                assertThrows(IllegalArgumentException.class, () -> client.events("t", "a", bad));
            }
            assertEquals(2, stub.requests.size(), "a bad idle timeout is refused before anything is sent");
        }
        try (StubService stub = new StubService(r -> new StubService.Reply(200, "text/html", "<html>", Map.of()))) {
            JobfoundryClient client = JobfoundryClient.builder(stub.url()).retryPolicy(FAST).build();
            JobfoundryException refused = assertThrows(JobfoundryException.class, () -> client.events("t", "a"));
            assertTrue(refused.getMessage().contains("without an event stream"), refused.getMessage());
        }
    }

    @Test
    void aCreateWithoutIdIsNotRepeatedAfterA503BecauseItMayHaveAddedTheJob() throws Exception {
        try (StubService stub = new StubService(r -> StubService.Reply.problem(503, UNAVAILABLE))) {
            JobfoundryClient client = JobfoundryClient.builder(stub.url()).retryPolicy(FAST).build();
            assertThrows(ProblemException.class, () -> client.create("t", JobSpec.empty()));
            assertEquals(1, stub.requests.size());
            // A PUT names its job, so repeating it is safe.
            assertThrows(ProblemException.class, () -> client.put("t", "a", JobSpec.empty()));
            assertEquals(1 + 5, stub.requests.size());
        }
    }

    @Test
    void aLostConnectionIsRetried() throws Exception {
        // The first connection is closed after the request is read, with no answer: a crashed proxy or a
        // service restart. The second gets an answer.
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            AtomicInteger connections = new AtomicInteger();
            Thread serving = new Thread(() -> {
                try {
                    while (true) {
                        try (Socket s = server.accept()) {
                            readRequest(s.getInputStream());
                            if (connections.incrementAndGet() == 1) {
                                continue; // closed without a word
                            }
                            byte[] body = StubService.job("t", "a", "pending").getBytes(StandardCharsets.UTF_8);
                            OutputStream out = s.getOutputStream();
                            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                            out.write(body);
                            out.flush();
                        }
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            serving.start();
            JobfoundryClient client = JobfoundryClient.builder("http://127.0.0.1:" + server.getLocalPort())
                    .retryPolicy(FAST).build();
            assertEquals("a", client.get("t", "a").orElseThrow().id());
            assertEquals(2, connections.get());
        }
    }

    @Test
    void anUnreachableServiceIsAJobfoundryExceptionAfterTheRetries() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        JobfoundryClient client = JobfoundryClient.builder("http://127.0.0.1:" + port).retryPolicy(FAST).build();
        JobfoundryException e = assertThrows(JobfoundryException.class, () -> client.get("t", "a"));
        assertFalse(e instanceof ProblemException);
        assertInstanceOf(java.net.ConnectException.class, e.getCause());
    }

    @Test
    void theTokenIsSentAsBearer() throws Exception {
        try (StubService stub = new StubService(r -> StubService.Reply.json(200, StubService.job("t", "a", "pending")))) {
            JobfoundryClient.builder(stub.url()).token("s3cret").build().get("t", "a");
            JobfoundryClient.create(stub.url()).get("t", "a");
            assertEquals("Bearer s3cret", stub.requests.get(0).header("Authorization"));
            assertEquals(null, stub.requests.get(1).header("Authorization"));
        }
    }

    @Test
    void aTokenReadFromASecretsFileIsSentWithoutItsNewline() throws Exception {
        try (StubService stub = new StubService(r -> StubService.Reply.json(200, StubService.job("t", "a", "pending")))) {
            JobfoundryClient.builder(stub.url()).token("s3cret\r\n").build().get("t", "a");
            assertEquals("Bearer s3cret", stub.requests.get(0).header("Authorization"));
        }
    }

    @Test
    void aTokenThatCannotGoInAHeaderIsRefusedWithoutShowingIt() {
        for (String token : new String[] {"s3cret\nX-Injected: 1", "s3c ret", "s3cr\u00e9t", "s3c\u0000ret", " \n"}) {
            JobfoundryException e = assertThrows(JobfoundryException.class,
                    () -> JobfoundryClient.builder("http://127.0.0.1:1").token(token).build(), token);
            assertFalse(e.getMessage().contains("s3c") || e.getMessage().contains("ret"), e.getMessage());
        }
    }

    @Test
    void aFailureInTheHttpLayerNeverCarriesTheToken() {
        // An HttpClient (the user's own, say) whose refusal quotes the header, as the JDK's does for a bad value.
        HttpClient quoting = new Delegating(HttpClient.newHttpClient()) {
            @Override
            public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
                throw new IllegalArgumentException("invalid header value: "
                        + request.headers().firstValue("Authorization").orElse(""));
            }
        };
        JobfoundryClient client = JobfoundryClient.builder("http://127.0.0.1:1").token("s3cret").httpClient(quoting).build();
        JobfoundryException e = assertThrows(JobfoundryException.class, () -> client.get("t", "a"));
        java.io.StringWriter printed = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(printed));
        assertFalse(printed.toString().contains("s3cret"), printed.toString());
        assertTrue(printed.toString().contains("IllegalArgumentException"), "says what failed: " + printed);
    }

    @Test
    void problemsAreTypedAndHaltsCarryTheirReason() throws Exception {
        try (StubService stub = new StubService(r -> r.path().endsWith("/heartbeat")
                ? StubService.Reply.problem(409, "{\"type\":\"tag:jobfoundry.io,2026:problem/halt\",\"title\":\"Halt\","
                        + "\"status\":409,\"detail\":\"the job was cancelled\",\"reason\":\"cancelled\"}")
                : StubService.Reply.problem(400, "{\"type\":\"tag:jobfoundry.io,2026:problem/invalid-request\","
                        + "\"title\":\"Invalid request\",\"status\":400,\"detail\":\"bad\",\"field\":\"priority\"}"))) {
            JobfoundryClient client = JobfoundryClient.create(stub.url());
            HaltException halt = assertThrows(HaltException.class,
                    () -> client.heartbeat(new Heartbeat("t", "a", "L", null)));
            assertEquals("cancelled", halt.reason());
            ProblemException bad = assertThrows(ProblemException.class, () -> client.create("t", JobSpec.empty()));
            assertFalse(bad instanceof HaltException);
            assertEquals(400, bad.status());
            assertEquals("priority", bad.member("field"));
            assertEquals("tag:jobfoundry.io,2026:problem/invalid-request", bad.type());
        }
    }

    @Test
    void aRefusedBatchNamesItsInvalidItems() throws Exception {
        // As the service answers a batch with an invalid item (ProducerIT shows the real one).
        try (StubService stub = new StubService(r -> StubService.Reply.problem(400, "{\"type\":"
                + "\"tag:jobfoundry.io,2026:problem/invalid-request\",\"status\":400,\"detail\":\"1 invalid item(s)\","
                + "\"errors\":[{\"index\":1,\"field\":\"jobs[1].repeat\",\"detail\":\"bad repeat\"}]}"))) {
            ProblemException e = assertThrows(ProblemException.class, () -> JobfoundryClient.create(stub.url())
                    .createBatch(java.util.List.of(NewJob.of("t", JobSpec.empty()), NewJob.of("t", JobSpec.empty()))));
            assertEquals(java.util.List.of(new ProblemException.ItemError(1, "jobs[1].repeat", "bad repeat")), e.errors());
            assertEquals("[{\"index\":1,\"field\":\"jobs[1].repeat\",\"detail\":\"bad repeat\"}]", e.member("errors"));
        }
    }

    @Test
    void onlyTheServicesOwn404MeansNoSuchJob() throws Exception {
        String jobNotFound = "{\"type\":\"tag:jobfoundry.io,2026:problem/job-not-found\",\"status\":404}";
        String typeNotFound = "{\"type\":\"tag:jobfoundry.io,2026:problem/type-not-found\",\"status\":404}";
        try (StubService stub = new StubService(r -> StubService.Reply.problem(404,
                r.path().startsWith("/right/v1/types/") ? typeNotFound
                        : r.path().startsWith("/right/") ? jobNotFound : "{\"type\":\"about:blank\",\"status\":404}"))) {
            JobfoundryClient right = JobfoundryClient.create(stub.url() + "/right");
            assertTrue(right.get("t", "a").isEmpty());
            assertFalse(right.remove("t", "a"));
            assertTrue(right.type("t").isEmpty());
            // A wrong base URL (or a proxy's 404): the job may well exist; saying it does not would mislead.
            JobfoundryClient wrong = JobfoundryClient.create(stub.url() + "/wrong");
            assertEquals(404, assertThrows(ProblemException.class, () -> wrong.get("t", "a")).status());
            assertThrows(ProblemException.class, () -> wrong.remove("t", "a"));
            assertThrows(ProblemException.class, () -> wrong.type("t"));
        }
    }

    @Test
    void idsArePercentEncodedAsUtf8() throws Exception {
        try (StubService stub = new StubService(r -> StubService.Reply.json(200, StubService.job("t", "x", "pending")))) {
            JobfoundryClient.create(stub.url()).get("t", "a b;c?é%");
            assertEquals("/v1/jobs/t/a%20b%3Bc%3F%C3%A9%25", stub.requests.get(0).path());
        }
    }

    private static void readRequest(InputStream in) throws IOException {
        // Headers end with an empty line; the GETs here have no body.
        int matched = 0;
        int c;
        while (matched < 4 && (c = in.read()) >= 0) {
            matched = (c == '\r' || c == '\n') ? matched + 1 : 0;
        }
    }

    /** An HttpClient passing everything on, for tests that change one call. */
    private static class Delegating extends HttpClient {
        private final HttpClient d;

        Delegating(HttpClient d) {
            this.d = d;
        }

        @Override public java.util.Optional<java.net.CookieHandler> cookieHandler() { return d.cookieHandler(); }
        @Override public java.util.Optional<Duration> connectTimeout() { return d.connectTimeout(); }
        @Override public Redirect followRedirects() { return d.followRedirects(); }
        @Override public java.util.Optional<java.net.ProxySelector> proxy() { return d.proxy(); }
        @Override public javax.net.ssl.SSLContext sslContext() { return d.sslContext(); }
        @Override public javax.net.ssl.SSLParameters sslParameters() { return d.sslParameters(); }
        @Override public java.util.Optional<java.net.Authenticator> authenticator() { return d.authenticator(); }
        @Override public Version version() { return d.version(); }
        @Override public java.util.Optional<java.util.concurrent.Executor> executor() { return d.executor(); }

        @Override
        public <T> HttpResponse<T> send(HttpRequest r, HttpResponse.BodyHandler<T> h) throws IOException, InterruptedException {
            return d.send(r, h);
        }

        @Override
        public <T> java.util.concurrent.CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest r, HttpResponse.BodyHandler<T> h) {
            return d.sendAsync(r, h);
        }

        @Override
        public <T> java.util.concurrent.CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest r,
                HttpResponse.BodyHandler<T> h, HttpResponse.PushPromiseHandler<T> p) {
            return d.sendAsync(r, h, p);
        }
    }
}
