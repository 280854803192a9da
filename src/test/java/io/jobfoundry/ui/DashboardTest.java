package io.jobfoundry.ui;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dashboard as the service serves it: the redirects into {@code /ui/}, every file with its
 * Content-Security-Policy, and the rules its sources keep so that the policy and the text-only
 * rendering hold (ui-tests/ checks the same in a browser).
 */
@QuarkusTest
class DashboardTest {

    private static final Path FILES = Path.of("src/main/resources/META-INF/resources/ui");
    /** docs/dashboard.md states the weight; this keeps it honest. */
    private static final long MAX_BYTES = 96 * 1024;

    @Test
    void theRootAndUiWithoutItsSlashRedirectIntoTheDashboard() {
        for (String path : List.of("/", "/ui")) {
            given().redirects().follow(false).get(path).then().statusCode(302).header("Location", "ui/");
            given().redirects().follow(false).head(path).then().statusCode(302).header("Location", "ui/");
        }
    }

    @Test
    void everyFileIsServedUnderAPolicyWithoutInlineScriptOrStyle() throws IOException {
        for (Path file : files()) {
            String path = "/ui/" + FILES.relativize(file).toString().replace('\\', '/');
            String policy = given().get(path).then().statusCode(200)
                    .header("X-Content-Type-Options", "nosniff")
                    .extract().header("Content-Security-Policy");
            assertTrue(policy != null && policy.contains("script-src 'self'") && policy.contains("style-src 'self'")
                    && policy.contains("default-src 'none'") && !policy.contains("unsafe"), path + ": " + policy);
        }
        given().get("/ui/").then().statusCode(200).contentType(startsWith("text/html"))
                .body(containsString("<script type=\"module\" src=\"app.js\"></script>"));
        given().get("/ui/app.js").then().statusCode(200).contentType(startsWith("text/javascript"));
    }

    /** No lifetime, so an upgraded service's scripts are fetched at once; unchanged ones cost a 304. */
    @Test
    void aFileIsAskedForAgainEveryTimeAndIsA304WhileUnchanged() {
        Response first = given().get("/ui/app.js");
        first.then().statusCode(200).header("Cache-Control", containsString("max-age=0"));
        String modified = first.header("Last-Modified");
        assertTrue(modified != null && !modified.isBlank(), "Last-Modified: " + modified);
        given().header("If-Modified-Since", modified).get("/ui/app.js").then().statusCode(304);
    }

    @Test
    void anUnknownDashboardFileIsA404() {
        given().get("/ui/missing.js").then().statusCode(404).header("Content-Security-Policy", not(equalTo(null)));
    }

    /** The static handler decodes an encoded slash that the headers' path pattern sees as written. */
    @Test
    void aDashboardFileReachedThroughAnEncodedSlashKeepsThePolicy() {
        for (String path : List.of("/ui%2Findex.html", "/ui%2fjs%2Fapi.js")) {
            given().urlEncodingEnabled(false).get(path).then().header("Content-Security-Policy", not(equalTo(null)))
                    .header("X-Frame-Options", "DENY");
        }
    }

    /** Markup strings and inline code would need the policy loosened, or let data become markup. */
    @Test
    void theSourcesBuildPagesWithoutMarkupStringsInlineCodeOrOtherHosts() throws IOException {
        Pattern forbidden = Pattern.compile(
                "innerHTML|outerHTML|insertAdjacentHTML|document\\.write|\\beval\\(|new Function\\(|<script>|\\son[a-z]+=|\\sstyle="
                        + "|https?://(?!www\\.w3\\.org/2000/svg)");
        List<String> found = new ArrayList<>();
        for (Path file : files()) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (forbidden.matcher(lines.get(i)).find() && !lines.get(i).trim().startsWith("//")) {
                    found.add(FILES.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).trim());
                }
            }
        }
        assertEquals(List.of(), found);
    }

    @Test
    void theDashboardStaysSmall() throws IOException {
        long bytes = 0;
        for (Path file : files()) {
            bytes += Files.size(file);
        }
        assertTrue(bytes <= MAX_BYTES, "the dashboard weighs " + bytes + " bytes");
    }

    private static List<Path> files() throws IOException {
        try (Stream<Path> walk = Files.walk(FILES)) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
