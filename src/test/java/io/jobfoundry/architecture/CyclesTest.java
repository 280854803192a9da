package io.jobfoundry.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * No loops between classes anywhere in the service: each top-level class (with its nested ones) is
 * a slice of its own, and no slice may reach itself again through others. A loop is where a
 * reader cannot understand one class without the other, and where a change to one ripples back.
 * The one exception is a sealed type with its permitted subtypes: the parent names them by
 * design, so they count as one slice with it.
 */
class CyclesTest {

    private static final SliceAssignment TOP_LEVEL_CLASSES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            if (!javaClass.getPackageName().startsWith("io.jobfoundry")) {
                return SliceIdentifier.ignore();
            }
            return SliceIdentifier.of(owner(javaClass).getName());
        }

        @Override
        public String getDescription() {
            return "each top-level class of io.jobfoundry, a sealed type with its permitted subtypes";
        }
    };

    /** The class whose slice {@code javaClass} is in: its outermost class, or the sealed type it is permitted by. */
    private static JavaClass owner(JavaClass javaClass) {
        JavaClass top = javaClass;
        while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
        }
        Class<?> type = top.reflect();
        for (Class<?> parent : supertypes(type)) {
            if (parent.isSealed() && parent.getName().startsWith("io.jobfoundry")) {
                return new ClassFileImporter().importClass(parent);
            }
        }
        return top;
    }

    private static Class<?>[] supertypes(Class<?> type) {
        Class<?>[] interfaces = type.getInterfaces();
        Class<?>[] all = java.util.Arrays.copyOf(interfaces, interfaces.length + 1);
        all[interfaces.length] = type.getSuperclass() == null ? Object.class : type.getSuperclass();
        return all;
    }

    @Test
    void noClassReachesItselfThroughOthers() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.jobfoundry");
        slices().assignedFrom(TOP_LEVEL_CLASSES).should().beFreeOfCycles().check(classes);
    }
}
