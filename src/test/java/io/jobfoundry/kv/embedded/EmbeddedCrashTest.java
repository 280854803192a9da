package io.jobfoundry.kv.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code kill -9} in the middle of a stream of commits: on reopen every transaction the writer saw
 * acknowledged is there, in order, and none is half-applied. Both durability settings promise to
 * survive a crash of the process (only {@code FSYNC} also promises power loss, which a test on one
 * machine cannot show).
 */
class EmbeddedCrashTest {

    private static final int ACKS_BEFORE_KILL = 400;

    @TempDir
    Path folder;

    @ParameterizedTest
    @EnumSource(Durability.class)
    void everyAcknowledgedTransactionSurvivesSigkillAndNoneIsHalfApplied(Durability durability) throws Exception {
        Path file = folder.resolve("crash.db");
        Process child = startChild(file, durability, "write");
        long[] acked = new long[CrashWriter.THREADS];
        int total = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while (total < ACKS_BEFORE_KILL && (line = out.readLine()) != null) {
                if (line.startsWith("ack ")) {
                    String[] parts = line.split(" ");
                    int thread = Integer.parseInt(parts[1]);
                    acked[thread] = Math.max(acked[thread], Long.parseLong(parts[2]));
                    total++;
                }
            }
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no close, mid-stream
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        assertEquals(ACKS_BEFORE_KILL, total, "the child died before it was killed: " + stderr(child));

        try (KvStore store = EmbeddedStore.open(EmbeddedOptions.at(file).withDurability(durability))) {
            TransactionRunner runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
            for (int thread = 0; thread < CrashWriter.THREADS; thread++) {
                int t = thread;
                byte[] lastValue = runner.run(tx -> tx.get(Tuple.from("last", t).pack()));
                assertNotNull(lastValue, "thread " + t + " acknowledged commits but none survived");
                long last = Tuple.fromBytes(lastValue).getLong(0);
                assertTrue(last >= acked[t], "thread " + t + ": acknowledged " + acked[t] + ", survived " + last);
                List<KeyValue> records = runner.run(tx -> tx.getRange(Tuple.from("rec", t).pack(),
                        Tuple.from("rec", t + 1).pack(), 0));
                List<KeyValue> pairs = runner.run(tx -> tx.getRange(Tuple.from("pair", t).pack(),
                        Tuple.from("pair", t + 1).pack(), 0));
                assertEquals(last, records.size(), "records of thread " + t + " are exactly 1.." + last);
                assertEquals(last, pairs.size(), "every record has its pair: nothing half-applied");
                for (int i = 0; i < records.size(); i++) {
                    assertEquals(i + 1, Tuple.fromBytes(records.get(i).key()).getLong(2), "in order, no gaps");
                }
            }
        }
    }

    @Test
    void aSecondProcessCannotOpenAStoreInUse() throws Exception {
        Path file = folder.resolve("owned.db");
        try (KvStore owner = EmbeddedStore.open(EmbeddedOptions.at(file))) {
            Process child = startChild(file, Durability.FSYNC, "open");
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(3, child.exitValue(), output + stderr(child));
            assertTrue(output.contains("in use by another process"), output);
        }
        Process after = startChild(file, Durability.FSYNC, "open");
        assertTrue(after.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, after.exitValue(), "once the owner closes, the store opens: " + stderr(after));
    }

    private static Process startChild(Path file, Durability durability, String mode) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                CrashWriter.class.getName(), file.toString(), durability.name(), mode));
        return new ProcessBuilder(command).start();
    }

    private static String stderr(Process process) {
        try {
            return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "(stderr unreadable: " + e + ")";
        }
    }
}
