// BullMQ driver: `node bullmq.mjs producer|worker --port P --queue Q --jobs J --timeout S
//   [--producers N] [--concurrency W] [--batch B] [--fetch F]`. A producer adds no-op jobs from N
// concurrent loops over one Queue: one `add` per job, or with B > 1 one `addBulk` of B jobs (one
// MULTI in Redis), BullMQ's bulk path. A worker runs one Worker with concurrency W × F (BullMQ's
// way to process many jobs at once; open-source BullMQ has no batch fetch, and a worker fetches
// the next job in the same script call that completes the last): W × F jobs in flight, as many
// as W Java workers holding up to F each. Completed jobs are removed, as beanstalkd's delete and
// graphile-worker's complete do.
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { WorkerTally, cpuMicros, deadlineOf, emit, now, parseArgs, produce, required, shapeOf } from './driver.mjs';

const args = parseArgs();
const deadline = deadlineOf(args);
const queueName = required(args, 'queue');
const jobs = Number(required(args, 'jobs'));
const shape = shapeOf(args);
// BullMQ 6 loads no Redis client itself under ESM: it takes a constructed one (and duplicates it
// for a worker's blocking connection). ioredis must not give up on a blocked command.
const connection = new Redis({ host: '127.0.0.1', port: Number(required(args, 'port')), maxRetriesPerRequest: null });

if (args.role === 'producer') {
  const queue = new Queue(queueName, { connection });
  const opts = { removeOnComplete: true, removeOnFail: true };
  await queue.waitUntilReady();
  const { created, startNs } = await produce({
    jobs, loops: Number(required(args, 'producers')), batch: shape.batch, deadline,
    createMany: (stamps) => (shape.batch === 1
      ? queue.add('noop', { t: stamps[0] }, opts)
      : queue.addBulk(stamps.map((t) => ({ name: 'noop', data: { t }, opts })))),
  });
  await emit({ event: 'result', role: 'producer', created, startNs, cpuMicros: cpuMicros() });
  await queue.close();
  await connection.quit();
} else if (args.role === 'worker') {
  const tally = new WorkerTally(jobs, deadline);
  const worker = new Worker(queueName, async (job) => tally.received(job.data.t),
    { connection, concurrency: Number(required(args, 'concurrency')) * shape.fetch });
  // 'completed' fires once the job has been moved to completed (here: removed) in Redis.
  worker.on('completed', () => tally.completedOne());
  worker.on('error', (e) => console.error('bullmq worker:', e));
  await worker.waitUntilReady();
  await emit({ event: 'ready', role: 'worker' });
  await tally.done;
  await emit(tally.result());
  await worker.close(true);
  await connection.quit();
} else {
  throw new Error('role: producer | worker');
}
process.exit(0);
