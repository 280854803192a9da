package io.jobfoundry.kv.fdb;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.apple.foundationdb.FDB;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Loading libfdb_c is a side effect of initializing {@link FDB}, which any static access to it
 * triggers, also from within fdb-java ({@code packWithVersionstamp} asks {@code FDB.instance()} for
 * the API version). Where that can happen is held here, so that the embedded store never loads
 * native FDB code: only {@link FdbClient}, called when an FDB store is opened.
 */
class FdbIsolationTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.jobfoundry");

    @Test
    void onlyFdbClientInitializesFoundationDb() {
        noClasses().that().doNotHaveFullyQualifiedName(FdbClient.class.getName())
                .should().accessTargetWhere(staticMemberOf(FDB.class))
                .check(MAIN);
    }

    @Test
    void nothingPacksVersionstampsThroughFdbJava() {
        noClasses()
                .should().callMethodWhere(named("packWithVersionstamp", Tuple.class))
                .orShould().callMethodWhere(named("packWithVersionstamp", Subspace.class))
                .because("fdb-java asks the native client for its API version there; use VersionstampKeys")
                .check(MAIN);
    }

    private static DescribedPredicate<JavaAccess<?>> staticMemberOf(Class<?> owner) {
        return DescribedPredicate.describe("a static member of " + owner.getSimpleName(),
                access -> access.getTargetOwner().isEquivalentTo(owner)
                        && access.getTarget().resolveMember()
                                .map(member -> member.getModifiers().contains(JavaModifier.STATIC))
                                .orElse(true));
    }

    private static DescribedPredicate<JavaAccess<?>> named(String method, Class<?> owner) {
        return DescribedPredicate.describe(owner.getSimpleName() + "." + method,
                access -> access.getTargetOwner().isEquivalentTo(owner) && access.getName().equals(method));
    }
}
