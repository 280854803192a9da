package io.jobfoundry.push;

import io.jobfoundry.Futures;
import io.jobfoundry.JobfoundryException;
import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.PushTarget;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * One push: the POST of one leased job, the heartbeats that hold its lease meanwhile, and the
 * finish its answer makes. Everything runs on one Vert.x event loop ({@code context}); nothing
 * blocks. It ends once, whichever comes first: the answer, the timeout, a failure, a halt told by
 * a heartbeat (a cancel or removal: the call is aborted, the job is no longer ours to finish), or
 * a shutdown giving the job back ({@link #abandon}).
 */
final class PushCall {

    private static final Logger LOG = Logger.getLogger(PushCall.class);

    private final PushContext push;
    private final PushMetrics.TypeMeters meters;
    private final Consumer<PushCall> onEnd;
    private final LeasedJob leased;
    private final PushTarget target;
    /** The longest a cancel of the job waits to reach its call (one heartbeat's time, and its commit). */
    static final Duration HEARTBEAT_AT_MOST = Duration.ofSeconds(5);

    private final Duration heartbeatEvery;
    private final Context context;
    private final AtomicBoolean ended = new AtomicBoolean();
    /** Completes once the call is over and its finish (if any) has committed or failed. */
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private volatile HttpClientRequest request;
    private volatile long started;
    private long timer = -1;
    private long heartbeats = -1;

    /** @param onEnd told once the call is over and its finish, if any, has committed or failed */
    PushCall(PushContext push, PushMetrics.TypeMeters meters, Consumer<PushCall> onEnd, LeasedJob leased,
            PushTarget target, Duration activityTimeout) {
        this.push = push;
        this.meters = meters;
        this.onEnd = onEnd;
        this.leased = leased;
        this.target = target;
        // A third of the activity timeout, so that two heartbeats may be late or lost before the
        // lease is; and at most HEARTBEAT_AT_MOST apart, since a heartbeat is how a cancel or a
        // removal reaches the call: with a serverless function's 15-minute timeout, a third
        // would leave a cancelled call running for five minutes.
        Duration third = activityTimeout.dividedBy(3);
        this.heartbeatEvery = third.compareTo(HEARTBEAT_AT_MOST) < 0 ? third : HEARTBEAT_AT_MOST;
        this.context = push.vertx().getOrCreateContext();
    }

    CompletableFuture<Void> done() {
        return done;
    }

    void start() {
        context.runOnContext(ignored -> send());
    }

    private void send() {
        started = System.nanoTime();
        Job job = leased.job();
        if (!push.targets().allows(target.url())) {
            // Checked when the type was configured; the allow-list may have changed since.
            end(PushVerdict.failed("push.url is not under jobfoundry.push.allowed-targets (any more)", "error"));
            return;
        }
        PushMessage message = PushMessage.of(job, push.secret(), push.clock().instant().getEpochSecond());
        timer = push.vertx().setTimer(Math.max(1, target.timeout().toMillis()),
                id -> abort(PushVerdict.timedOut(target.timeout())));
        heartbeats = push.vertx().setPeriodic(Math.max(1, heartbeatEvery.toMillis()), id -> heartbeat());
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(target.url())
                .setFollowRedirects(false);
        message.headers().forEach(options::putHeader);
        Future<HttpClientRequest> opening;
        try {
            opening = push.client().request(options);
        } catch (RuntimeException e) {
            // A URL the client cannot use (a port out of range stored before it was refused).
            end(PushVerdict.unreachable(e));
            return;
        }
        opening.onComplete(opened -> {
            if (opened.failed()) {
                end(PushVerdict.unreachable(opened.cause()));
                return;
            }
            HttpClientRequest req = opened.result();
            request = req;
            if (ended.get()) {
                // Timed out or halted while waiting for a connection: nothing was sent. Without a
                // handler Vert.x logs the reset of a request never sent as an ERROR.
                req.exceptionHandler(ignored -> { });
                req.reset();
                return;
            }
            req.send(Buffer.buffer(message.body())).onComplete(answered -> {
                if (answered.failed()) {
                    end(PushVerdict.unreachable(answered.cause()));
                } else {
                    read(answered.result());
                }
            });
        });
    }

    /** Reads the answer up to the configured size; beyond it the connection is dropped. */
    private void read(HttpClientResponse response) {
        int max = push.maxAnswerBytes();
        Buffer body = Buffer.buffer();
        response.handler(chunk -> {
            if (body.length() + chunk.length() > max) {
                abort(PushVerdict.tooLarge(response.statusCode(), max));
            } else {
                body.appendBuffer(chunk);
            }
        });
        response.exceptionHandler(failure -> end(PushVerdict.unreachable(failure)));
        response.endHandler(ignored -> end(PushVerdict.answered(response.statusCode(),
                response.getHeader("Retry-After"), response.getHeader("Content-Type"), body.getBytes(),
                push.clock().instant())));
    }

    private void heartbeat() {
        if (ended.get()) {
            return;
        }
        Job job = leased.job();
        CompletableFuture<Job> beat;
        try {
            beat = push.engine().heartbeatAsync(job.type(), job.id(), leased.lease(), Change.keep());
        } catch (JobfoundryException e) {
            LOG.debugf(e, "push of %s/%s: heartbeat refused", job.type(), job.id());
            return;
        }
        Futures.whenDone(beat, (renewed, failure) -> {
            Throwable why = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (why instanceof HaltException halt) {
                // Cancelled, removed, or the lease lost: the job is not ours to finish.
                LOG.debugf("push of %s/%s aborted: %s", job.type(), job.id(), halt.reason());
                context.runOnContext(ignored -> abort(null));
            } else if (why != null) {
                // The store did not answer: the next heartbeat tries again, while the lease lasts.
                LOG.debugf(why, "push of %s/%s: heartbeat failed", job.type(), job.id());
            }
        });
    }

    /** Ends the call and drops its connection (a target still working sees it closed). */
    private void abort(PushVerdict verdict) {
        if (end(verdict)) {
            HttpClientRequest req = request;
            if (req != null) {
                req.reset();
            }
        }
    }

    /**
     * Ends the call once: stops its timers and finishes the job as {@code verdict} says (null: no
     * finish, the job is not ours any more). Answers whether this call ended it.
     */
    private boolean end(PushVerdict verdict) {
        if (!ended.compareAndSet(false, true)) {
            return false;
        }
        stopTimers();
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        meters.called(verdict == null ? "aborted" : verdict.outcome(), took);
        if (verdict == null) {
            completed();
            return true;
        }
        CompletableFuture<Job> finishing;
        try {
            finishing = finish(verdict);
        } catch (RuntimeException refused) {
            // Refused before it began (the engine checks its input at once): the call must still
            // end, or its slot would stay taken.
            finishing = CompletableFuture.failedFuture(refused);
        }
        Futures.whenDone(finishing, (job, failure) -> {
            Throwable why = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (why instanceof HaltException halt) {
                LOG.debugf("push of %s/%s answered, but the job was %s meanwhile", leased.job().type(),
                        leased.job().id(), halt.reason());
            } else if (why != null) {
                // The lease stays: the job comes back after its activity timeout and is pushed again.
                LOG.warnf(why, "push of %s/%s: finishing it failed", leased.job().type(), leased.job().id());
            }
            completed();
        });
        return true;
    }

    private CompletableFuture<Job> finish(PushVerdict verdict) {
        JobEngine engine = push.engine();
        Job job = leased.job();
        if (verdict.succeeded()) {
            try {
                return engine.finishAsync(job.type(), job.id(), leased.lease(), true, verdict.data(), null);
            } catch (JobfoundryException refused) {
                // The answer's object is more than a job's data may hold. A 2xx says the target
                // did the work: the job succeeds with its data as it was, as for any answer that
                // cannot be data, rather than fail an attempt and have the target do it again.
                LOG.warnf("push of %s/%s: the target's answer cannot be the job's data (%s); the data is left as"
                        + " it was", job.type(), job.id(), refused.getMessage());
                return engine.finishAsync(job.type(), job.id(), leased.lease(), true, Change.keep(), null);
            }
        }
        if (verdict.notBefore() != null) {
            return engine.failAsync(job.type(), job.id(), leased.lease(), verdict.error(), verdict.notBefore());
        }
        return engine.finishAsync(job.type(), job.id(), leased.lease(), false, Change.keep(), verdict.error());
    }

    private void stopTimers() {
        if (timer >= 0) {
            push.vertx().cancelTimer(timer);
        }
        if (heartbeats >= 0) {
            push.vertx().cancelTimer(heartbeats);
        }
    }

    private void completed() {
        onEnd.accept(this);
        done.complete(null);
    }

    /**
     * Shutdown: if the call is still waiting for its answer, drops it and answers true; the caller
     * then gives the job back. False if it has ended already (its finish is under way: wait for
     * {@link #done()}).
     */
    boolean abandon() {
        if (!ended.compareAndSet(false, true)) {
            return false;
        }
        context.runOnContext(ignored -> {
            stopTimers();
            HttpClientRequest req = request;
            if (req != null) {
                req.reset();
            }
        });
        meters.called("aborted", Duration.ofNanos(System.nanoTime() - started));
        return true;
    }

    LeasedJob leased() {
        return leased;
    }

    /** After {@link #abandon()} and the job given back. */
    void givenBack() {
        completed();
    }
}
