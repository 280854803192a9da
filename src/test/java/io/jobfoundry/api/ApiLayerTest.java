package io.jobfoundry.api;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.jobfoundry.kv.StoreException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API stays thin: it talks to the engine (jobs) and the repeat parser, and of the kv gateway
 * knows only its exception, to answer 503. Never the store, the wiring or the monitors.
 */
class ApiLayerTest {

    private static JavaClasses api;

    @BeforeAll
    static void importApi() {
        api = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.jobfoundry.api");
    }

    @Test
    void theApiSeesNoWiringNoMonitorsAndNoStore() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.jobfoundry.service..",
                "io.jobfoundry.monitors..", "io.jobfoundry.kv.embedded..", "io.jobfoundry.kv.fdb..")
                .check(api);
    }

    @Test
    void ofTheGatewayOnlyItsExceptionIsUsed() {
        noClasses().should().dependOnClassesThat(
                com.tngtech.archunit.base.DescribedPredicate.describe("kv classes other than StoreException",
                        c -> c.getPackageName().equals("io.jobfoundry.kv") && !c.isAssignableTo(StoreException.class)))
                .check(api);
    }
}
