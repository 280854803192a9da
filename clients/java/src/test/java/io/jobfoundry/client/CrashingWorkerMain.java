package io.jobfoundry.client;

/**
 * A worker process that takes one job and hangs on it, for WorkerIT to kill: a worker that crashes mid-job.
 * Arguments: the service's URL and the type.
 */
public final class CrashingWorkerMain {

    private CrashingWorkerMain() {
    }

    public static void main(String[] args) {
        Worker.builder(LiveService.client(args[0]), ctx -> {
            Thread.sleep(Long.MAX_VALUE);
            return null;
        }, args[1]).name("crasher").concurrency(1).build().start();
    }
}
