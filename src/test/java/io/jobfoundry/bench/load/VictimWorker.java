package io.jobfoundry.bench.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The worker that the recovery scenario kills: a process of its own that accepts one job, says so
 * on standard output (the job array as one line), and then "works" on it without ever sending a
 * heartbeat — until the parent SIGKILLs it. It depends on the JDK only, so the parent can start
 * it with nothing but the bench's own classes on the class path. Should the parent die first, it
 * gives up by itself after {@link #LIFETIME_SECONDS}.
 * <pre>java -cp target/test-classes io.jobfoundry.bench.load.VictimWorker http://127.0.0.1:8080 TYPE</pre>
 */
public final class VictimWorker {

    static final int LIFETIME_SECONDS = 300;

    private VictimWorker() {
    }

    public static void main(String[] args) throws Exception {
        URI base = URI.create(args[0]);
        String type = args[1];
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest accept = HttpRequest.newBuilder(base.resolve("/v1/accept"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"types\":[\"" + type + "\"],\"max\":1,\"wait\":30000,\"worker\":\"victim-" + ProcessHandle.current().pid() + "\"}"))
                .timeout(Duration.ofSeconds(40)).build();
        HttpResponse<String> answer = http.send(accept, HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            System.out.println("no job: " + answer.statusCode());
            System.exit(1);
        }
        System.out.println(answer.body().replace('\n', ' '));
        System.out.flush();
        // Mid-job: the work takes "forever" and sends no heartbeat; only SIGKILL ends it early.
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(LIFETIME_SECONDS));
        System.exit(3);
    }
}
