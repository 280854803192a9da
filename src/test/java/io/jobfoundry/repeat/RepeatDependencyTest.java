package io.jobfoundry.repeat;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.jobfoundry.JobfoundryException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** DESIGN.md: {@code repeat →} nothing; pure, no I/O, no reflection (native images). */
class RepeatDependencyTest {

    /** {@code java.time.zone} and {@code java.time.chrono}: a cron repeat's zone rules, the JDK's own tz database. */
    private static final Set<String> ALLOWED_PACKAGES = Set.of("io.jobfoundry.repeat", "java.lang", "java.math",
            "java.time", "java.time.chrono", "java.time.zone", "java.util", "com.cronutils.model",
            "com.cronutils.model.definition", "com.cronutils.model.time", "com.cronutils.parser");

    @Test
    void dependsOnlyOnTheJdkCoreCronUtilsAndTheRootException() {
        JavaClasses repeat = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.jobfoundry.repeat");
        classes().should().onlyDependOnClassesThat(describe("in " + ALLOWED_PACKAGES + " or JobfoundryException",
                        (JavaClass target) -> ALLOWED_PACKAGES.contains(target.getPackageName())
                                || target.isEquivalentTo(JobfoundryException.class)))
                .check(repeat);
    }
}
