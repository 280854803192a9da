package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDB;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.tuple.Tuple;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Enables FDB tests iff {@code FDB_CLUSTER_FILE} names an existing file, libfdb_c loads, and a read
 * answers within {@link #TIMEOUT}. Without the variable they are skipped, with the reason as the
 * skip message and once on the console; with it, a cluster that cannot be used fails them, so that
 * a run meant to test FoundationDB cannot pass by skipping. Probed once per JVM.
 *
 * <p>The probe talks to fdb-java directly rather than through {@link FdbStores}: a bug in opening
 * must fail the FDB tests, not skip them.
 */
public final class FdbClusterCondition implements ExecutionCondition {

    static final String CLUSTER_FILE_VARIABLE = "FDB_CLUSTER_FILE";
    static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static final class Probe {
        static final String CLUSTER_FILE = System.getenv(CLUSTER_FILE_VARIABLE);
        static final ConditionEvaluationResult RESULT = probe(CLUSTER_FILE);

        static {
            if (RESULT.isDisabled() && !asked(CLUSTER_FILE)) {
                System.err.println("FoundationDB suites skipped: " + RESULT.getReason().orElse(""));
            }
        }
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (Probe.RESULT.isDisabled() && asked(Probe.CLUSTER_FILE)) {
            throw new ExtensionConfigurationException(CLUSTER_FILE_VARIABLE + " is set, but FoundationDB cannot be used: "
                    + Probe.RESULT.getReason().orElse(""));
        }
        return Probe.RESULT;
    }

    private static boolean asked(String clusterFile) {
        return clusterFile != null && !clusterFile.isBlank();
    }

    static ConditionEvaluationResult probe(String clusterFile) {
        if (clusterFile == null || clusterFile.isBlank()) {
            return ConditionEvaluationResult.disabled(CLUSTER_FILE_VARIABLE + " is not set");
        }
        if (!Files.isRegularFile(Path.of(clusterFile))) {
            return ConditionEvaluationResult.disabled(CLUSTER_FILE_VARIABLE + " names no file: " + clusterFile);
        }
        Optional<String> unavailable = NativeClient.unavailableReason();
        if (unavailable.isPresent()) {
            return ConditionEvaluationResult.disabled("libfdb_c is not installed: " + unavailable.get());
        }
        return read(FDB.instance(), clusterFile);
    }

    private static ConditionEvaluationResult read(FDB fdb, String clusterFile) {
        try (Database db = fdb.open(clusterFile); Transaction tr = db.createTransaction()) {
            tr.options().setTimeout(TIMEOUT.toMillis());
            tr.get(Tuple.from("jobfoundry-test-probe").pack()).join();
            return ConditionEvaluationResult.enabled("cluster " + clusterFile + " answered");
        } catch (RuntimeException e) {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof FDBException fdbError && fdbError.getCode() == FdbErrors.TRANSACTION_TIMED_OUT) {
                return ConditionEvaluationResult.disabled(
                        "cluster " + clusterFile + " did not answer within " + TIMEOUT.toSeconds() + " s");
            }
            return ConditionEvaluationResult.disabled("cluster " + clusterFile + " could not be read: " + cause);
        }
    }
}
