package io.jobfoundry.push;

import io.jobfoundry.Futures;
import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.model.PushTarget;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.waits.JobWaits;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Push delivery on this replica: one {@link PushLane} per type whose settings name a push target,
 * kept in step with the type registry, which it reads every {@link #REFRESH} (a type configured on
 * any replica starts pushing here within that); a type whose url the allow-list refuses gets none,
 * its jobs left to pull workers. Calls go through one Vert.x HTTP client (pooled
 * keep-alive connections, no redirects followed); no thread waits for a call.
 *
 * <p>Shutdown in two steps: {@link #stopTaking()} when waiting stops (no new job is taken; the
 * calls in flight go on), then {@link #drain(Duration)} before the store closes: calls still in
 * flight get what is left of the drain, then are dropped and their jobs given back, unchanged, for
 * another replica to push. A job is either finished by its answer or given back, never both.
 */
public final class PushDispatcher {

    private static final Logger LOG = Logger.getLogger(PushDispatcher.class);
    static final Duration REFRESH = Duration.ofSeconds(1);

    private final PushContext push;
    private final Map<String, PushLane> lanes = new ConcurrentHashMap<>();
    /** Push types whose target the allow-list refuses, each warned about once. */
    private final Set<String> refused = new HashSet<>();
    private long refreshTimer = -1;
    private volatile boolean stopped;

    /** @param blocking a thread for giving jobs back, which blocks for its commit */
    public PushDispatcher(JobEngine engine, JobWaits waits, Vertx vertx, PushTargets targets, PushConfig config,
            PushMetrics metrics, ExecutorService blocking) {
        // Up to a type's largest concurrency at once to one host: the pool's size is PoolOptions',
        // which the builder does not take from HttpClientOptions (there it stayed Vert.x' 5, and a
        // sixth call waited for a connection while its timeout ran). Redirects are a failed attempt.
        HttpClient client = vertx.httpClientBuilder().with(new HttpClientOptions().setKeepAlive(true)
                        .setMaxRedirects(0).setConnectTimeout((int) TypeSettings.DEFAULT.activityTimeout().toMillis()))
                .with(new PoolOptions().setHttp1MaxSize(PushTarget.MAX_CONCURRENCY))
                // A target that answers no HTTP, or resets, fails its call (its lastError says so);
                // without a handler Vert.x would also log each such connection as an ERROR.
                .withConnectHandler(connection -> connection.exceptionHandler(
                        e -> LOG.debugf("push connection to %s failed: %s", connection.remoteAddress(), e)))
                .build();
        byte[] secret = config.signingSecret().filter(s -> !s.isEmpty())
                .map(s -> s.getBytes(StandardCharsets.UTF_8)).orElse(null);
        this.push = new PushContext(engine, waits, vertx, client, targets, secret, config.maxAnswerBytes(), metrics,
                engine.context().clock(), blocking);
    }

    /** Starts following the type registry; pushing begins with the first read. */
    public synchronized void start() {
        if (!stopped && refreshTimer < 0) {
            refreshTimer = push.vertx().setPeriodic(1, REFRESH.toMillis(), id -> refresh());
        }
    }

    private void refresh() {
        if (stopped) {
            return;
        }
        Futures.whenDone(push.engine().pushTypesAsync(), (types, failure) -> {
            if (failure != null) {
                LOG.debugf(failure, "push: reading the push types failed; next look in %s", REFRESH);
            } else {
                follow(types);
            }
        });
    }

    private synchronized void follow(Map<String, TypeSettings> types) {
        if (stopped) {
            return;
        }
        // A stopped lane stays while its calls are in flight: a type that pushes again counts them
        // against its concurrency, and a shutdown drains them.
        lanes.entrySet().removeIf(entry -> {
            if (types.containsKey(entry.getKey())) {
                return false;
            }
            if (entry.getValue().stop()) {
                LOG.infof("push: type %s no longer pushes", entry.getKey());
            }
            return entry.getValue().calls().isEmpty();
        });
        types.forEach((type, settings) -> {
            if (!push.targets().allows(settings.push().url())) {
                // Configured under another allow-list: its jobs wait (or go to pull workers) until
                // the list admits the target again, rather than spend their attempts on refusals.
                if (refused.add(type)) {
                    LOG.warnf("push: type %s is not pushed: its url is not under jobfoundry.push.allowed-targets",
                            type);
                    push.metrics().of(type); // its jobfoundry_push_concurrency shows 0 from now on
                }
                PushLane refusedLane = lanes.get(type);
                if (refusedLane != null) {
                    refusedLane.stop();
                    if (refusedLane.calls().isEmpty()) {
                        lanes.remove(type);
                    }
                }
                return;
            }
            refused.remove(type);
            PushLane lane = lanes.get(type);
            if (lane == null) {
                LOG.infof("push: type %s pushes to %s", type, settings.push().loggedUrl());
                lane = new PushLane(push, type, settings);
                lanes.put(type, lane);
                lane.pump();
            } else {
                PushTarget before = lane.settings().push();
                if (lane.update(settings)) {
                    LOG.infof("push: type %s pushes to %s", type, settings.push().loggedUrl());
                } else if (!before.equals(settings.push())) {
                    LOG.infof("push: type %s now pushes to %s, up to %d calls at once, each within %s s", type,
                            settings.push().loggedUrl(), settings.push().concurrency(),
                            TypeSettings.seconds(settings.push().timeout()).toPlainString());
                }
            }
        });
    }

    /** Takes no more jobs on any type; calls in flight go on. */
    public synchronized void stopTaking() {
        stopped = true;
        if (refreshTimer >= 0) {
            push.vertx().cancelTimer(refreshTimer);
        }
        lanes.values().forEach(PushLane::stop);
    }

    /** Calls in flight on this replica, of every type. */
    public int inFlight() {
        return lanes.values().stream().mapToInt(lane -> lane.calls().size()).sum();
    }

    /**
     * Lets the calls in flight end within {@code within}; drops those that do not, and gives their
     * jobs back to the queue before answering. Answers how many were given back.
     */
    public int drain(Duration within) {
        stopTaking();
        List<PushCall> calls = new ArrayList<>();
        lanes.values().forEach(lane -> calls.addAll(lane.calls()));
        CompletableFuture<?> all = CompletableFuture.allOf(calls.stream().map(PushCall::done)
                .toArray(CompletableFuture[]::new));
        try {
            all.get(Math.max(0, within.toMillis()), TimeUnit.MILLISECONDS);
            return 0;
        } catch (TimeoutException e) {
            // Those still waiting for an answer are dropped and given back; those finishing are waited for.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debug("push: a call failed while draining", e);
        }
        int givenBack = 0;
        for (PushCall call : calls) {
            if (call.abandon()) {
                push.giveBack(call.leased());
                call.givenBack();
                givenBack++;
            }
        }
        try {
            // Finishes under way commit or fail within a transaction's time; and jobs an accept
            // handed over as the lanes stopped are given back before the store closes.
            all.get(30, TimeUnit.SECONDS);
            push.blocking().submit(() -> { }).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.debug("push: a finish or a give-back did not end while draining", e);
        }
        return givenBack;
    }
}
