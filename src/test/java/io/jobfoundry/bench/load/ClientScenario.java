package io.jobfoundry.bench.load;

import io.jobfoundry.bench.Options;
import io.jobfoundry.bench.http.HttpClientKind;
import io.jobfoundry.bench.measure.CpuMeter;
import io.jobfoundry.bench.measure.Latency;
import io.jobfoundry.bench.measure.Millis;
import io.jobfoundry.bench.measure.Percentiles;
import java.time.Duration;

/**
 * Which HTTP client should the bench use? Client and service share two cores, so the client's
 * CPU per request is taken straight from the service. Each client creates jobs from the same
 * number of connections for the same time; the table gives the rate, the latency and the
 * client's own CPU per request (and the service's, with {@code --server-pid}). Each client runs
 * twice, alternating, so JIT warm-up does not favour the second.
 */
final class ClientScenario {

    private final Options options;
    private final int connections;
    private final int seconds;
    private final long serverPid;

    ClientScenario(Options options, int connections, int seconds, long serverPid) {
        this.options = options;
        this.connections = connections;
        this.seconds = seconds;
        this.serverPid = serverPid;
    }

    void run() throws Exception {
        System.out.printf("HTTP client: %d connections creating jobs for %d s, each client twice%n", connections, seconds);
        System.out.printf("%6s %10s %10s %10s %18s %18s%n", "client", "req/s", "p50", "p99", "client CPU/req", "server CPU/req");
        for (int round = 0; round < 2; round++) {
            for (HttpClientKind kind : HttpClientKind.values()) {
                measure(new LoadTarget(options, kind));
            }
        }
    }

    private void measure(LoadTarget target) throws Exception {
        String type = LoadTarget.freshType("client");
        Latency latency = new Latency();
        var server = serverPid > 0 ? CpuMeter.start(serverPid) : java.util.Optional.<CpuMeter>empty();
        double clientBefore = CpuMeter.ownSeconds();
        long start = System.nanoTime();
        long end = start + Duration.ofSeconds(seconds).toNanos();
        long n = target.createUntil(type, connections, end, latency);
        double elapsed = (System.nanoTime() - start) / 1e9;
        double clientCpu = CpuMeter.ownSeconds() - clientBefore;
        Percentiles p = latency.percentiles();
        System.out.printf("%6s %10.0f %10s %10s %18s %18s%n", target.clientKind.name().toLowerCase(), n / elapsed,
                Millis.format(p.p50()), Millis.format(p.p99()), Millis.format(clientCpu * 1000 / n),
                server.map(s -> Millis.format(s.seconds() * 1000 / n)).orElse("n/a"));
    }
}
