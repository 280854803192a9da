package io.jobfoundry.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dependency rules of DESIGN.md: api → jobs → kv; monitors → jobs; jobs → repeat; the two
 * backends → kv only; repeat → nothing. Only {@code service} (the assembly) sees everything.
 */
class LayersTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.jobfoundry");
    }

    @Test
    void theKvGatewayKnowsNothingAboveIt() {
        noClasses().that().resideInAPackage("io.jobfoundry.kv..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.jobfoundry.jobs..", "io.jobfoundry.api..", "io.jobfoundry.monitors..",
                        "io.jobfoundry.repeat..", "io.jobfoundry.service..", "io.jobfoundry.metrics..", "io.micrometer..")
                .check(classes);
    }

    @Test
    void backendsDependOnlyOnTheGatewayNotOnEachOther() {
        noClasses().that().resideInAPackage("io.jobfoundry.kv.embedded..")
                .should().dependOnClassesThat().resideInAnyPackage("io.jobfoundry.kv.fdb..", "com.apple.foundationdb")
                .check(classes);
        noClasses().that().resideInAPackage("io.jobfoundry.kv.fdb..")
                .should().dependOnClassesThat().resideInAnyPackage("io.jobfoundry.kv.embedded..", "org.sqlite..")
                .check(classes);
    }

    @Test
    void theGatewayAndEngineAreBackendNeutral() {
        noClasses().that().resideInAnyPackage("io.jobfoundry.kv", "io.jobfoundry.jobs..", "io.jobfoundry.api..",
                        "io.jobfoundry.monitors..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.jobfoundry.kv.embedded..", "io.jobfoundry.kv.fdb..", "org.sqlite..",
                        "com.apple.foundationdb")
                .check(classes);
    }

    @Test
    void repeatIsPure() {
        noClasses().that().resideInAPackage("io.jobfoundry.repeat..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.jobfoundry.kv..", "io.jobfoundry.jobs..", "io.jobfoundry.api..",
                        "io.jobfoundry.monitors..", "io.jobfoundry.service..", "java.sql..", "java.net..", "java.nio.file..")
                .check(classes);
    }

    @Test
    void theEngineKnowsNothingOfHttpOrQuarkusWiring() {
        noClasses().that().resideInAPackage("io.jobfoundry.jobs..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.jobfoundry.api..", "io.jobfoundry.monitors..", "io.jobfoundry.service..",
                        "io.jobfoundry.metrics..", "io.micrometer..", "jakarta.ws.rs..", "io.vertx..",
                        "io.jobfoundry.push..")
                .check(classes);
    }

    /** Push delivery is a client of the engine, as a worker is: never of the HTTP API, the wiring or the store. */
    @Test
    void pushDeliveryUsesTheEngineOnly() {
        noClasses().that().resideInAPackage("io.jobfoundry.push..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.jobfoundry.api..", "io.jobfoundry.service..", "io.jobfoundry.monitors..",
                        "io.jobfoundry.kv..", "io.jobfoundry.jobs.records..", "jakarta.ws.rs..")
                .check(classes);
    }
}
