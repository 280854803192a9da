// graphile-worker driver: `node graphile-worker.mjs producer|worker --connection URL --queue Q
//   --jobs J --timeout S [--producers N] [--concurrency W] [--batch B] [--fetch F]`. A producer
// adds no-op jobs from N concurrent loops: WorkerUtils.addJob per job, or with B > 1 one
// WorkerUtils.addJobs of B jobs (one statement), graphile-worker's bulk path. A worker runs one
// runner. With F = 1 its defaults are kept (concurrency W, no local queue, no batched
// completion): each job is fetched and completed on its own, as in the other systems. With
// F > 1 it uses its batching (worker.graphile.org/docs/performance#batching): concurrency W × F
// (as many jobs in flight as W Java workers holding up to F each), a local queue of as many jobs
// fetched and locked in one query, and completions batched (completeJobBatchDelay 0: whatever
// completed in the same tick goes in one statement). The task name carries the run's queue name
// so that runs never see each other's jobs.
import { Logger, makeWorkerUtils, run } from 'graphile-worker';
import { WorkerTally, cpuMicros, deadlineOf, emit, now, parseArgs, produce, required, shapeOf } from './driver.mjs';

const args = parseArgs();
const deadline = deadlineOf(args);
const connectionString = required(args, 'connection');
const task = required(args, 'queue');
const jobs = Number(required(args, 'jobs'));
const shape = shapeOf(args);
// graphile-worker logs every job at info level; stdout belongs to the JSON result line.
const logger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') {
    console.error(`graphile-worker ${level}: ${message}`);
  }
});

if (args.role === 'producer') {
  const loops = Number(required(args, 'producers'));
  const utils = await makeWorkerUtils({ connectionString, maxPoolSize: loops, logger });
  const { created, startNs } = await produce({
    jobs, loops, batch: shape.batch, deadline,
    createMany: (stamps) => (shape.batch === 1
      ? utils.addJob(task, { t: stamps[0] })
      : utils.addJobs(stamps.map((t) => ({ identifier: task, payload: { t } })))),
  });
  await emit({ event: 'result', role: 'producer', created, startNs, cpuMicros: cpuMicros() });
  await utils.release();
} else if (args.role === 'worker') {
  const workers = Number(required(args, 'concurrency'));
  const tally = new WorkerTally(jobs, deadline);
  const taskList = { [task]: async (payload) => tally.received(payload.t) };
  const runner = await run(shape.fetch === 1
    ? {
      connectionString, concurrency: workers, logger, noHandleSignals: true, taskList,
      // A pool no smaller than the concurrency, so that jobs never queue for a connection.
      maxPoolSize: workers + 2,
    }
    : {
      connectionString, concurrency: workers * shape.fetch, logger, noHandleSignals: true, taskList,
      // Jobs come from the local queue and go back in batches: connections are taken per
      // fetch and per completion batch, not per job in flight (and W × F + 2 would pass
      // PostgreSQL's default max_connections of 100).
      maxPoolSize: workers + 2,
      preset: { worker: { localQueue: { size: workers * shape.fetch }, completeJobBatchDelay: 0 } },
    });
  // 'job:complete' fires when the job's completion is handed to the pool (worker.js does not
  // await it), so the clock may stop one completion round trip before the last one commits.
  runner.events.on('job:complete', ({ error }) => {
    if (!error) {
      tally.completedOne();
    }
  });
  await emit({ event: 'ready', role: 'worker' });
  await tally.done;
  await emit(tally.result());
  await runner.stop();
} else {
  throw new Error('role: producer | worker');
}
process.exit(0);
