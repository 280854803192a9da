// BullMQ driver: `node bullmq.mjs producer|worker --port P --queue Q --jobs J --timeout S
//   [--producers N] [--concurrency W]`. A producer adds no-op jobs from N concurrent loops over
// one Queue; a worker runs one Worker with concurrency W (BullMQ's way to process W jobs at
// once). Completed jobs are removed, as beanstalkd's delete and graphile-worker's complete do.
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { WorkerTally, cpuMicros, deadlineOf, emit, now, parseArgs, produce, required } from './driver.mjs';

const args = parseArgs();
const deadline = deadlineOf(args);
const queueName = required(args, 'queue');
const jobs = Number(required(args, 'jobs'));
// BullMQ 6 loads no Redis client itself under ESM: it takes a constructed one (and duplicates it
// for a worker's blocking connection). ioredis must not give up on a blocked command.
const connection = new Redis({ host: '127.0.0.1', port: Number(required(args, 'port')), maxRetriesPerRequest: null });

if (args.role === 'producer') {
  const queue = new Queue(queueName, { connection });
  await queue.waitUntilReady();
  const { created, startNs } = await produce({
    jobs, loops: Number(required(args, 'producers')), deadline,
    createOne: () => queue.add('noop', { t: now().toString() }, { removeOnComplete: true, removeOnFail: true }),
  });
  await emit({ event: 'result', role: 'producer', created, startNs, cpuMicros: cpuMicros() });
  await queue.close();
  await connection.quit();
} else if (args.role === 'worker') {
  const tally = new WorkerTally(jobs, deadline);
  const worker = new Worker(queueName, async (job) => tally.received(job.data.t),
    { connection, concurrency: Number(required(args, 'concurrency')) });
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
