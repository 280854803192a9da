// What the Node drivers share: arguments, the clock, the bound on every run, and the one JSON
// line each process prints for the Java side (io.jobfoundry.bench.compare.DriverWorkload).
//
// Times are process.hrtime.bigint(): CLOCK_MONOTONIC, the clock Java's System.nanoTime() reads
// on Linux, so the producer's and the worker's stamps can be compared across processes.

export const now = () => process.hrtime.bigint();

/** `node x.mjs ROLE --name value ...` as {role, name: value, ...}; numbers stay strings. */
export function parseArgs(argv = process.argv.slice(2)) {
  const [role, ...rest] = argv;
  const args = { role };
  for (let i = 0; i < rest.length; i += 2) {
    if (!rest[i].startsWith('--') || rest[i + 1] === undefined) {
      throw new Error(`expected --name value, got ${rest[i]}`);
    }
    args[rest[i].slice(2)] = rest[i + 1];
  }
  return args;
}

export function required(args, name) {
  if (args[name] === undefined) {
    throw new Error(`--${name} is required`);
  }
  return args[name];
}

/**
 * One line of JSON on stdout: the only thing the drivers print there. Resolves once the line is
 * handed to the OS — stdout to a pipe is asynchronous in Node, and process.exit() would cut a
 * long result line (20,000 latencies) short.
 */
export function emit(event) {
  const line = JSON.stringify(event, (k, v) => (typeof v === 'bigint' ? v.toString() : v)) + '\n';
  return new Promise((resolve) => process.stdout.write(line, resolve));
}

export function cpuMicros() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * Runs `loops` concurrent async loops that each claim the next `batch` jobs (fewer for the last)
 * and call `createMany(stamps)` with one creation stamp per job, until `jobs` have been claimed or
 * the deadline passes; answers how many were created and when the loops were released. With a
 * batch of 1 the driver creates one job per call (the single workload).
 */
export async function produce({ jobs, loops, batch, deadline, createMany }) {
  let next = 0;
  let created = 0;
  const startNs = now();
  await Promise.all(Array.from({ length: loops }, async () => {
    while (next < jobs && now() < deadline) {
      const count = Math.min(batch, jobs - next);
      next += count;
      const stamp = now().toString();
      await createMany(Array.from({ length: count }, () => stamp));
      created += count;
    }
  }));
  return { created, startNs };
}

/**
 * The workload's shape from the arguments: `--batch` jobs per create call (1: one at a time),
 * and `--fetch` jobs a worker takes at most at once (1: one at a time); both default to 1.
 */
export function shapeOf(args) {
  return { batch: Number(args.batch ?? 1), fetch: Number(args.fetch ?? 1) };
}

/**
 * Keeps count of a worker's jobs: receipt latencies (µs from the producer's stamp) and
 * completions; resolves `done` at the last completion or at the deadline, whichever is first.
 */
export class WorkerTally {
  constructor(jobs, deadline) {
    this.jobs = jobs;
    this.latencyMicros = [];
    this.completed = 0;
    this.lastCompleteNs = null;
    this.done = new Promise((resolve) => {
      this.resolve = resolve;
      const left = Number(deadline - now()) / 1e6;
      this.timer = setTimeout(resolve, Math.max(0, left));
    });
  }

  received(stampNs) {
    this.latencyMicros.push(Number((now() - BigInt(stampNs)) / 1000n));
  }

  completedOne() {
    if (++this.completed === this.jobs) {
      this.lastCompleteNs = now();
      clearTimeout(this.timer);
      this.resolve();
    }
  }

  result() {
    return {
      event: 'result', role: 'worker', received: this.latencyMicros.length, completed: this.completed,
      lastCompleteNs: this.lastCompleteNs ?? now(), cpuMicros: cpuMicros(), latencyMicros: this.latencyMicros,
    };
  }
}

/** The deadline of a run: now + --timeout seconds. */
export function deadlineOf(args) {
  return now() + BigInt(Math.round(Number(required(args, 'timeout')) * 1e9));
}
