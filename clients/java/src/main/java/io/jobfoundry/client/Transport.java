package io.jobfoundry.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** One HTTP exchange with the service, repeated by the retry policy after a 503 or a lost connection. */
final class Transport {

    private static final String USER_AGENT = "jobfoundry-client-java/0.1";
    private static final String SERVICE_PROBLEMS = "tag:jobfoundry.io,";

    private final URI base;
    private final HttpClient http;
    private final String token;
    private final String authorization;
    private final RetryPolicy retry;
    private final Duration timeout;

    Transport(URI base, HttpClient http, String token, RetryPolicy retry, Duration timeout) {
        String text = base.toString();
        this.base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        this.http = http;
        this.token = token;
        this.authorization = token == null ? null : "Bearer " + token;
        this.retry = retry;
        this.timeout = timeout;
    }

    /** The answer; {@code body} is null for an empty one (204) or one that is not JSON. */
    record Answer(int status, JsonNode body) {

        boolean ok() {
            return status >= 200 && status < 300;
        }

        ProblemException problem() {
            boolean halt = status == 409 && body != null && HaltException.HALT_TYPE.equals(Json.text(body, "type"));
            return halt ? new HaltException(body) : new ProblemException(status, body);
        }

        /**
         * A 404 of the service's own ({@code job-not-found}, {@code type-not-found}): no such thing. A 404 of
         * anything else (HTTP's {@code about:blank} from a wrong base URL or a proxy) says nothing about the job.
         */
        boolean notFound() {
            return status == 404 && body != null && String.valueOf(Json.text(body, "type")).startsWith(SERVICE_PROBLEMS);
        }

        Answer orThrow() {
            if (!ok()) {
                throw problem();
            }
            return this;
        }
    }

    /**
     * Sends one call.
     *
     * @param idempotent whether the call may be repeated after it may have reached the service. A call that
     *     is not (a create without an id) is repeated only when it surely did not: the connection was never made.
     * @param longPoll how long the service may hold the answer back on purpose (accept's wait, waitFor's timeout)
     */
    Answer send(String method, String path, JsonNode body, boolean idempotent, Duration longPoll) {
        return send(method, path, body, idempotent, null, longPoll);
    }

    /**
     * Sends one call that adds or resubmits jobs by id under an {@code Idempotency-Key} drawn for it: the service
     * recognizes the call's repeats, which carry the same key, so it is repeated like any idempotent call.
     */
    Answer sendKeyed(String method, String path, JsonNode body) {
        return send(method, path, body, true, UUID.randomUUID().toString(), Duration.ZERO);
    }

    /** One attempt of a long poll: its path and how long the service may hold the answer back. */
    record Poll(String path, Duration holdFor) {
    }

    /**
     * A {@code GET} long poll with a deadline: {@code poll} gives each attempt its path and wait afresh, so that a
     * repeat after a lost connection asks for what is left of the wait, not for the whole of it again.
     */
    Answer poll(String path, Supplier<Poll> poll) {
        return send("GET", path, null, true, null, poll);
    }

    private Answer send(String method, String path, JsonNode body, boolean idempotent, String key, Duration longPoll) {
        Poll once = new Poll(path, longPoll);
        return send(method, path, body, idempotent, key, () -> once);
    }

    private Answer send(String method, String path, JsonNode body, boolean idempotent, String key, Supplier<Poll> poll) {
        try {
            return exchange(method, path, body, idempotent, key, poll);
        } catch (JobfoundryException e) {
            throw e;
        } catch (RuntimeException e) {
            // The JDK (or an HttpClient of the user's) refusing the request: its message may quote any header.
            throw failure(method + " " + path + ": " + e, e);
        }
    }

    private Answer exchange(String method, String path, JsonNode body, boolean idempotent, String key,
            Supplier<Poll> poll) {
        byte[] bytes = body == null ? null : Json.write(body);
        Supplier<HttpRequest> attempt = () -> {
            Poll now = poll.get();
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + now.path()))
                    .timeout(timeout.plus(now.holdFor()))
                    .header("User-Agent", USER_AGENT);
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            if (key != null) { // every repeat carries the same key
                request.header("Idempotency-Key", key);
            }
            if (bytes != null) {
                request.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofByteArray(bytes));
            } else {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            }
            return request.build();
        };
        HttpResponse<byte[]> response = sendRetried(attempt, HttpResponse.BodyHandlers.ofByteArray(),
                idempotent, ignored -> { }, method, path);
        return new Answer(response.statusCode(), json(response.body()));
    }

    /**
     * The lines of a streamed answer ({@code text/event-stream}), read as they arrive; closing the stream closes
     * the connection. Opening it is retried like any {@code GET} (after a {@code 503} or a lost connection); a
     * refusal is thrown as its problem, and a {@code 200} that is not an event stream (a proxy's page) as a
     * {@link JobfoundryException}. A stream that ends is opened again by its reader, if it wants.
     */
    Stream<String> lines(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(timeout) // until the answer's head: the stream itself lasts as long as it lasts
                .header("User-Agent", USER_AGENT).header("Accept", "text/event-stream").GET();
        if (authorization != null) {
            builder.header("Authorization", authorization);
        }
        try {
            HttpRequest request = builder.build();
            HttpResponse<Stream<String>> response = sendRetried(() -> request, HttpResponse.BodyHandlers.ofLines(),
                    true, Stream::close, "GET", path);
            if (response.statusCode() == 200) {
                if (response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
                    return response.body();
                }
                response.body().close(); // a proxy's page, perhaps endless: not read
                throw new JobfoundryException("GET " + path + " answered 200 without an event stream");
            }
            String text;
            try (Stream<String> body = response.body()) {
                text = body.collect(Collectors.joining("\n"));
            }
            Answer answer = new Answer(response.statusCode(), json(text.getBytes(StandardCharsets.UTF_8)));
            throw answer.ok() ? new JobfoundryException("GET " + path + " answered " + answer.status()
                    + " without an event stream") : answer.problem();
        } catch (JobfoundryException e) {
            throw e;
        } catch (RuntimeException e) {
            // The refusal's body broken off, or the JDK refusing the request: its message may quote any header.
            throw failure("GET " + path + ": " + e, e);
        }
    }

    /**
     * Sends {@code request} until it is answered with something else than a {@code 503}: again after a {@code 503}
     * or a lost connection when it is {@code idempotent}, and after a connection that could not be made in any
     * case, at most {@link RetryPolicy#maxAttempts()} times. {@code discard} lets go of a body not read.
     */
    private <B> HttpResponse<B> sendRetried(Supplier<HttpRequest> request, HttpResponse.BodyHandler<B> handler,
            boolean idempotent, Consumer<B> discard, String method, String path) {
        for (int attempt = 1; ; attempt++) {
            Duration retryAfter;
            try {
                HttpResponse<B> response = http.send(request.get(), handler);
                if (response.statusCode() != 503 || !idempotent || attempt >= retry.maxAttempts()) {
                    return response;
                }
                discard.accept(response.body());
                retryAfter = retryAfter(response);
            } catch (ConnectException | HttpConnectTimeoutException e) {
                if (attempt >= retry.maxAttempts()) {
                    throw failure(method + " " + path + ": cannot connect to " + base, e);
                }
                retryAfter = null;
            } catch (IOException e) {
                if (!idempotent || attempt >= retry.maxAttempts()) {
                    throw failure(method + " " + path + ": " + e, e);
                }
                retryAfter = null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new JobfoundryException(method + " " + path + ": interrupted", e);
            }
            pause(retry.delay(attempt, retryAfter), method, path);
        }
    }

    /**
     * A failed exchange as an exception that cannot show the token: where the cause or anything it was caused by
     * mentions it, the token is cut from the message, and the cause, which a log would print whole, is left out.
     */
    private JobfoundryException failure(String message, Throwable e) {
        if (token == null || !mentionsToken(e)) {
            return new JobfoundryException(message, e);
        }
        return new JobfoundryException(message.replace(token, "<token>") + " (" + e.getClass().getName()
                + "; its cause is left out: it holds the token)");
    }

    private boolean mentionsToken(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (String.valueOf(t.getMessage()).contains(token) || String.valueOf(t.getLocalizedMessage()).contains(token)) {
                return true;
            }
            for (Throwable s : t.getSuppressed()) {
                if (mentionsToken(s)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void pause(Duration delay, String method, String path) {
        try {
            Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JobfoundryException(method + " " + path + ": interrupted while waiting to retry", e);
        }
    }

    private static Duration retryAfter(HttpResponse<?> response) {
        Optional<String> header = response.headers().firstValue("Retry-After");
        try {
            return header.map(value -> Duration.ofSeconds(Long.parseLong(value.trim()))).orElse(null);
        } catch (NumberFormatException e) {
            return null; // an HTTP date: the policy's own delay will do
        }
    }

    private static JsonNode json(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            return Json.parse(body);
        } catch (IOException e) {
            // A proxy's HTML error page: keep its text so that the problem says what came back.
            String text = new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8);
            return Json.MAPPER.createObjectNode().put("detail", text);
        }
    }
}
