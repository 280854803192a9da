package io.jobfoundry.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * CPU seconds used by a process and all its descendants between two points, from
 * {@code /proc/PID/stat}. On two cores shared by the client and the server, CPU per job says more
 * than wall time about what each side costs.
 * <p>
 * PostgreSQL serves each connection from a child process that ends with the connection — before
 * the run is measured a second time. So each process counts its own time plus its reaped
 * children's ({@code utime + stime + cutime + cstime}): a backend that ended is still counted,
 * in the postmaster's {@code cutime}, and the sum over the live tree is the tree's whole CPU.
 * Linux only (empty elsewhere).
 */
public final class CpuMeter {

    private static final double TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux the bench targets

    private final long pid;
    private final long before;
    private final long compilerBefore;

    private CpuMeter(long pid, long before, long compilerBefore) {
        this.pid = pid;
        this.before = before;
        this.compilerBefore = compilerBefore;
    }

    /** Starts measuring the process tree under {@code pid}; empty when there is no such process or no /proc. */
    public static Optional<CpuMeter> start(long pid) {
        long ticks = ticks(pid);
        return ticks < 0 ? Optional.empty() : Optional.of(new CpuMeter(pid, ticks, compilerTicks(pid)));
    }

    /** CPU seconds the tree used since {@link #start}. */
    public double seconds() {
        return (ticks(pid) - before) / TICKS_PER_SECOND;
    }

    /**
     * CPU seconds the root process's JIT compiler threads (HotSpot's {@code C1 CompilerThread}s and
     * {@code C2 CompilerThread}s) used since {@link #start}, part of {@link #seconds}: a JVM keeps
     * compiling long after it starts serving, and on two cores its compiler takes from the same CPU
     * the service does. Zero for a process that has no such threads.
     */
    public double compilerSeconds() {
        return (compilerTicks(pid) - compilerBefore) / TICKS_PER_SECOND;
    }

    private static long compilerTicks(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long sum = 0;
        try (var threads = Files.list(tasks)) {
            for (Path thread : (Iterable<Path>) threads::iterator) {
                String name = readOrEmpty(thread.resolve("comm")).strip();
                if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                    sum += Math.max(0, ownTicks(readOrEmpty(thread.resolve("stat"))));
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0; // ended meanwhile, or not Linux
        }
        return sum;
    }

    private static String readOrEmpty(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return ""; // a thread that ended meanwhile
        }
    }

    /** utime + stime of a {@code stat} line, or -1 when it cannot be read. */
    private static long ownTicks(String stat) {
        try {
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** The tree's ticks, or -1 when the root cannot be read. */
    private static long ticks(long pid) {
        long root = read(pid);
        if (root < 0) {
            return -1;
        }
        return root + ProcessHandle.of(pid).map(handle -> handle.descendants().mapToLong(d -> Math.max(0, read(d.pid()))).sum())
                .orElse(0L);
    }

    private static long read(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // After "pid (comm) ": state is field 3, utime 14, stime 15, cutime 16, cstime 17
            // (proc(5)); comm may hold spaces, so count from the closing parenthesis.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]) + Long.parseLong(fields[13])
                    + Long.parseLong(fields[14]);
        } catch (IOException | RuntimeException e) {
            return -1; // ended meanwhile, or not Linux
        }
    }

    /** CPU seconds of this JVM so far (the bench's own client side). */
    public static double ownSeconds() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime() / 1e9;
        }
        return Double.NaN;
    }
}
