package io.jobfoundry.kv.fdb;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated tests only where {@code FDB_CLUSTER_FILE} names a FoundationDB cluster that
 * answers; elsewhere they are reported as skipped, with the reason (see {@link FdbClusterCondition}).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(FdbClusterCondition.class)
public @interface EnabledIfFdbReachable {
}
