package io.jobfoundry.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobfoundry.Futures;
import io.jobfoundry.jobs.model.JobEvent;
import io.jobfoundry.jobs.ScopedJobs;
import io.jobfoundry.jobs.waits.JobWaits;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.UnicastProcessor;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code GET /v1/jobs/{type}/{id}/events}: a job's subscription as Server-Sent Events.
 * {@code event: state} carries the job object (one {@code data} line of JSON), its {@code id} is the
 * job's revision; the first is
 * the current state. {@code event: removed} carries {@code {"type","id"}} and ends the stream.
 *
 * <p>The subscription is made before the response starts, so an unknown job is a plain 404 and no
 * change can slip between reading the current state and watching for the next. Events wait in an
 * unbounded buffer until the response takes them; the engine coalesces a burst of changes into its
 * latest state, so the buffer stays small. When the client leaves, Quarkus cancels the stream, and
 * that cancels the subscription. A comment every {@code jobfoundry.api.events-keep-alive} keeps
 * proxies from closing a quiet stream and lets a connection that died without a word fail a write,
 * so its subscription (a store watch) does not outlive it.
 */
@ApplicationScoped
class JobEventStream {

    private final ObjectMapper mapper;
    private final Vertx vertx;
    private final long keepAliveMillis;

    JobEventStream(ObjectMapper mapper, Vertx vertx, ApiConfig config) {
        this.mapper = mapper;
        this.vertx = vertx;
        this.keepAliveMillis = Math.max(1, config.eventsKeepAlive().toMillis());
    }

    /** @throws io.jobfoundry.jobs.JobNotFoundException if there is no such job */
    Multi<OutboundSseEvent> open(ScopedJobs jobs, String type, String id, Sse sse) {
        Events events = new Events();
        JobWaits.Subscription subscription = jobs.subscribe(type, id, event -> events.emit(toSse(sse, type, id, event)));
        // Removal, shutdown or a store failure: the stream ends (after the removed event, if any).
        Futures.whenDone(subscription.ended(), (ignored, failure) -> events.complete());
        OutboundSseEvent keepAlive = sse.newEventBuilder().comment("keep-alive").build();
        // The keep-alive starts when the response takes the stream: until then, -1.
        AtomicLong keepAliveTimer = new AtomicLong(-1);
        Runnable release = () -> {
            vertx.cancelTimer(keepAliveTimer.get());
            subscription.cancel();
            events.complete();
        };
        // A client that hangs up before the response starts fails its headers' write, and Quarkus
        // then never subscribes to the stream, so termination never comes: without this, its
        // subscription (a store watch) and buffer stayed for good, and filled with every change.
        vertx.setTimer(UNSUBSCRIBED_LIMIT_MILLIS, check -> {
            if (keepAliveTimer.get() == -1) {
                release.run();
            }
        });
        return events.processor
                .onSubscription().invoke(() ->
                        keepAliveTimer.set(vertx.setPeriodic(keepAliveMillis, tick -> events.emit(keepAlive))))
                .onTermination().invoke(release);
    }

    /** How long a stream may wait for the response to take it before it is let go (it takes milliseconds). */
    static final long UNSUBSCRIBED_LIMIT_MILLIS = 5_000;

    /** The stream's two sources, the subscription and the keep-alive timer, in one serialized sink. */
    private static final class Events {
        final UnicastProcessor<OutboundSseEvent> processor = UnicastProcessor.create();
        private boolean done;

        synchronized void emit(OutboundSseEvent event) {
            if (!done) {
                processor.onNext(event);
            }
        }

        synchronized void complete() {
            if (!done) {
                done = true;
                processor.onComplete();
            }
        }
    }

    private OutboundSseEvent toSse(Sse sse, String type, String id, JobEvent event) {
        if (event.removed()) {
            Map<String, String> removed = new LinkedHashMap<>();
            removed.put("type", type);
            removed.put("id", id);
            return sse.newEventBuilder().name("removed").data(json(removed)).build();
        }
        return sse.newEventBuilder().name("state").id(Long.toString(event.job().revision()))
                .data(json(JobDto.of(event.job()))).build();
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a job always serializes", e);
        }
    }
}
