import io.jobfoundry.client.JobfoundryClient;
import io.jobfoundry.client.Worker;
import java.time.Duration;
import java.util.Map;

/**
 * The quickstart's Java worker: handles jobs of type "email" until Ctrl-C, which stops it gracefully.
 * Run from the repository root (see docs/quickstart.md):
 * java -cp 'clients/java/target/*:clients/java/target/dependency/*' clients/java/examples/EmailWorker.java
 */
public class EmailWorker {

    public static void main(String[] args) throws InterruptedException {
        JobfoundryClient client = JobfoundryClient.create(args.length > 0 ? args[0] : "http://localhost:8080");
        Worker worker = Worker.builder(client, ctx -> {
            String to = ctx.data().path("to").asText();
            System.out.println("java worker: sending to " + to + " (job " + ctx.job().id() + ")");
            ctx.progress(Map.of("to", to, "step", "sending")); // shown by GET with the next heartbeat
            Thread.sleep(1000); // the work; a halt (cancel, remove) interrupts it
            return Map.of("to", to, "sentBy", "java"); // the job's data once it is finished
        }, "email").concurrency(4).build().start();
        // Ctrl-C (or SIGTERM): stop accepting, let running jobs finish for up to 20 s, then stop.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> worker.shutdown(Duration.ofSeconds(20))));
        System.out.println("java worker " + worker.name() + " is waiting for email jobs; Ctrl-C stops it");
        Thread.currentThread().join();
    }
}
