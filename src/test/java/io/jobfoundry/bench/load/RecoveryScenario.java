package io.jobfoundry.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobfoundry.bench.client.Accepted;
import io.jobfoundry.bench.client.JobfoundryClient;
import io.jobfoundry.bench.measure.Latency;
import io.jobfoundry.bench.measure.Millis;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Scenario 5, recovery: a real worker process ({@link VictimWorker}) accepts a job and is killed
 * with SIGKILL mid-job; another worker, already waiting in accept, gets the job once the activity
 * monitor sees the lease go quiet. The time from the kill to the second receipt should be about
 * the type's activity timeout, less the time the victim held the job, plus at most one activity
 * monitor period (1 s by default).
 */
final class RecoveryScenario {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final LoadTarget target;
    private final int runs;
    private final double activityTimeoutSeconds;
    private final int holdMillis;

    RecoveryScenario(LoadTarget target, int runs, double activityTimeoutSeconds, int holdMillis) {
        this.target = target;
        this.runs = runs;
        this.activityTimeoutSeconds = activityTimeoutSeconds;
        this.holdMillis = holdMillis;
    }

    void run() throws Exception {
        System.out.printf("recovery: a worker process accepts a job, holds it %d ms, is killed with SIGKILL; "
                + "activity timeout %.1f s%n", holdMillis, activityTimeoutSeconds);
        Latency fromKill = new Latency();
        Latency fromAccept = new Latency();
        for (int run = 1; run <= runs; run++) {
            Recovery times = once();
            fromAccept.recordNanos(times.recoveredAt - times.acceptedAt);
            fromKill.recordNanos(times.recoveredAt - times.killedAt);
            System.out.printf("  run %d: rerun %s after the kill, %s after the victim's accept%n", run,
                    Millis.format((times.recoveredAt - times.killedAt) / 1e6),
                    Millis.format((times.recoveredAt - times.acceptedAt) / 1e6));
        }
        System.out.printf("  kill → rerun:   %s%n  accept → rerun: %s%n", fromKill.percentiles().line(),
                fromAccept.percentiles().line());
    }

    /** When the victim held the job, when it was killed and when the rescuer got it, as {@code System.nanoTime()}. */
    private record Recovery(long acceptedAt, long killedAt, long recoveredAt) {
    }

    private Recovery once() throws Exception {
        String type = LoadTarget.freshType("recovery");
        try (JobfoundryClient client = target.connect(); JobfoundryClient rescuer = target.connect()) {
            client.configureType(type, "{\"activityTimeout\":" + activityTimeoutSeconds + "}");
            client.create(type, "{}");
            Process victim = startVictim(type);
            try {
                String line = readLine(victim);
                long acceptedAt = System.nanoTime();
                JsonNode held = JSON.readTree(line).get(0);
                int waitMillis = (int) (activityTimeoutSeconds * 1000) + 30_000;
                CompletableFuture<List<Accepted>> rerun = CompletableFuture.supplyAsync(() -> {
                    try {
                        return rescuer.accept(type, 1, waitMillis, "rescuer");
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(holdMillis));
                long killedAt = System.nanoTime();
                victim.destroyForcibly(); // SIGKILL on Unix: no shutdown hook, no goodbye to the service
                if (!victim.waitFor(10, TimeUnit.SECONDS) || victim.exitValue() != 128 + 9) {
                    throw new IllegalStateException("the victim did not die of SIGKILL: " + victim);
                }
                List<Accepted> jobs = rerun.get(waitMillis + 5_000L, TimeUnit.MILLISECONDS);
                long recoveredAt = System.nanoTime();
                if (jobs.size() != 1 || !jobs.get(0).id().equals(held.path("id").asText())) {
                    throw new IllegalStateException("the rescuer got " + jobs + " instead of " + held.path("id"));
                }
                rescuer.finish(jobs.get(0));
                return new Recovery(acceptedAt, killedAt, recoveredAt);
            } finally {
                victim.destroyForcibly();
            }
        }
    }

    private Process startVictim(String type) throws Exception {
        // The bench's own classes: the victim needs nothing else (see VictimWorker).
        Path classes = Path.of(VictimWorker.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(java.toString(), "-XX:TieredStopAtLevel=1", "-cp", classes.toString(),
                VictimWorker.class.getName(), target.base.toString(), type)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static String readLine(Process victim) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(victim.getInputStream(), StandardCharsets.UTF_8));
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).get(60, TimeUnit.SECONDS);
        if (line == null || !line.startsWith("[")) {
            throw new IllegalStateException("the victim worker said " + line);
        }
        return line;
    }
}
