// graphile-worker driver: `node graphile-worker.mjs producer|worker --connection URL --queue Q
//   --jobs J --timeout S [--producers N] [--concurrency W]`. A producer adds no-op jobs with
// WorkerUtils.addJob from N concurrent loops; a worker runs one runner with concurrency W.
// Its defaults are kept (no local queue, no batched completion): each job is fetched and
// completed on its own, as in the other systems. The task name carries the run's queue name so
// that runs never see each other's jobs.
import { Logger, makeWorkerUtils, run } from 'graphile-worker';
import { WorkerTally, cpuMicros, deadlineOf, emit, now, parseArgs, produce, required } from './driver.mjs';

const args = parseArgs();
const deadline = deadlineOf(args);
const connectionString = required(args, 'connection');
const task = required(args, 'queue');
const jobs = Number(required(args, 'jobs'));
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
    jobs, loops, deadline, createOne: () => utils.addJob(task, { t: now().toString() }),
  });
  await emit({ event: 'result', role: 'producer', created, startNs, cpuMicros: cpuMicros() });
  await utils.release();
} else if (args.role === 'worker') {
  const concurrency = Number(required(args, 'concurrency'));
  const tally = new WorkerTally(jobs, deadline);
  const runner = await run({
    connectionString, concurrency, logger, noHandleSignals: true,
    // A pool no smaller than the concurrency, so that jobs never queue for a connection.
    maxPoolSize: concurrency + 2,
    taskList: { [task]: async (payload) => tally.received(payload.t) },
  });
  // 'job:complete' fires once the job's result has been written back to the database.
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
