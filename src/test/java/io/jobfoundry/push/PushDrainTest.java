package io.jobfoundry.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.MutableClock;
import io.jobfoundry.jobs.background.ActivityMonitor;
import io.jobfoundry.jobs.accept.Accepting;
import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.context.JobObserver;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.PushTarget;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.nio.file.Path;
import java.time.Instant;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica shutting down with a call in flight: answered within the drain, its job is finished;
 * unanswered, the call is dropped and the job given back unchanged, for another replica. Never both.
 */
class PushDrainTest {

    static final long WAIT_SECONDS = 30;

    @TempDir
    Path folder;

    KvStore store;
    ScheduledExecutorService pool;
    ExecutorService blocking;
    JobWaits waits;
    JobEngine engine;
    Vertx vertx;
    HttpServer target;
    final BlockingQueue<HttpServerRequest> held = new LinkedBlockingQueue<>();
    PushDispatcher dispatcher;
    final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    ActivityMonitor activity;

    @BeforeEach
    void start() throws Exception {
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS));
        EngineContext context = new EngineContext(new TransactionRunner(store, RetryPolicy.DEFAULT), clock,
                JobObserver.NONE);
        activity = new ActivityMonitor(context);
        Accepting accepting = new Accepting(context, EngineOptions.DEFAULT);
        pool = Executors.newScheduledThreadPool(2);
        waits = new JobWaits(accepting, pool, pool);
        engine = new JobEngine(context, EngineOptions.DEFAULT, accepting, waits);
        vertx = Vertx.vertx();
        target = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(b -> held.add(request)))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
        blocking = Executors.newSingleThreadExecutor();
        dispatcher = new PushDispatcher(engine, waits, vertx, new PushTargets(List.of("http://127.0.0.1")),
                new PushConfig() {
                    @Override
                    public Optional<List<String>> allowedTargets() {
                        return Optional.of(List.of("http://127.0.0.1"));
                    }

                    @Override
                    public Optional<String> signingSecret() {
                        return Optional.empty();
                    }

                    @Override
                    public int maxAnswerBytes() {
                        return 65536;
                    }
                }, new PushMetrics(new SimpleMeterRegistry()), blocking);
        engine.configureType("hook", TypeSettings.DEFAULT.withPush(new PushTarget(
                "http://127.0.0.1:" + target.actualPort() + "/run", Duration.ofSeconds(30), 2)));
    }

    @AfterEach
    void stop() throws Exception {
        dispatcher.stopTaking();
        waits.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
        blocking.shutdownNow();
        pool.shutdownNow();
        store.close();
    }

    private HttpServerRequest received() throws InterruptedException {
        HttpServerRequest request = held.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(request, "no push arrived");
        return request;
    }

    @Test
    void anUnansweredCallIsDroppedAndItsJobGivenBackUnchanged() throws Exception {
        dispatcher.start();
        engine.put("hook", "a", JobChanges.NONE);
        HttpServerRequest call = received();
        CompletableFuture<Void> closed = new CompletableFuture<>();
        call.connection().closeHandler(v -> closed.complete(null));

        assertEquals(1, dispatcher.drain(Duration.ofMillis(100)));
        closed.get(WAIT_SECONDS, TimeUnit.SECONDS);
        Job job = engine.get("hook", "a").orElseThrow();
        assertEquals(JobState.PENDING, job.state(), "back in the queue");
        assertEquals(0, job.attempt(), "no attempt counted");
        assertNull(job.lastError());
        assertEquals(0, dispatcher.inFlight());
        vertx.runOnContext(v -> call.response().end("{}")); // too late: changes nothing
        assertEquals(JobState.PENDING, engine.get("hook", "a").orElseThrow().state());
    }

    @Test
    void aCallAnsweredWithinTheDrainFinishesItsJob() throws Exception {
        dispatcher.start();
        engine.put("hook", "a", JobChanges.NONE);
        HttpServerRequest call = received();
        dispatcher.stopTaking(); // as the shutdown does when waiting stops, before the drain
        engine.put("hook", "b", JobChanges.NONE); // due while draining: not taken
        CompletableFuture<Integer> draining = CompletableFuture.supplyAsync(
                () -> dispatcher.drain(Duration.ofSeconds(WAIT_SECONDS)));
        vertx.runOnContext(v -> call.response().putHeader("Content-Type", "application/json").end("{\"done\":true}"));

        assertEquals(0, draining.get(WAIT_SECONDS, TimeUnit.SECONDS), "nothing to give back");
        Job a = engine.get("hook", "a").orElseThrow();
        assertEquals(JobResult.SUCCEEDED, a.result());
        assertEquals("{\"done\":true}", a.data());
        assertEquals(JobState.PENDING, engine.get("hook", "b").orElseThrow().state());
        assertNull(held.poll(), "no second call after the drain began");
    }

    /**
     * A replica killed mid-call neither finishes nor gives back: its lease (taken as any push lane
     * takes it) just goes quiet. After the activity timeout the job is pending again, an attempt
     * counted, and a live replica pushes it again.
     */
    @Test
    void aJobWhoseReplicaDiedMidCallComesBackAfterItsActivityTimeoutAndIsPushedAgain() throws Exception {
        engine.put("hook", "a", JobChanges.NONE);
        assertEquals(1, engine.accept(new AcceptRequest(List.of("hook"), 1, null, "push")).size());
        activity.runOnce();
        clock.advance(TypeSettings.DEFAULT.activityTimeout().plusSeconds(1));
        activity.runOnce();
        assertEquals(JobState.PENDING, engine.get("hook", "a").orElseThrow().state());

        dispatcher.start(); // the replica that is still alive
        HttpServerRequest again = received();
        assertEquals("1", again.getHeader("Jobfoundry-Attempt"), "the quiet attempt counted");
        vertx.runOnContext(v -> again.response().end());
        Job job = waits.waitFor("hook", "a", JobState.FINISHED, Duration.ofSeconds(WAIT_SECONDS))
                .toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertEquals(JobResult.SUCCEEDED, job.result());
    }
}
