package io.infx.cli.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The published artifacts and the BOM agree: {@code infx-bom} lists every module that is installed
 * (and nothing else), pins no third-party version, and has no parent whose dependencyManagement an
 * import would drag along; the examples and benchmarks are never installed or deployed.
 */
class BomTest {

  private static final Path ROOT =
      Path.of(System.getProperty("infx.repo.root", "..")).toAbsolutePath().normalize();

  @Test
  void bomListsExactlyThePublishedModulesAndNothingElse() throws Exception {
    Document parent = parse(ROOT.resolve("pom.xml"));
    Document bom = parse(ROOT.resolve("infx-bom/pom.xml"));

    assertThat(child(bom.getDocumentElement(), "parent"))
        .as("infx-bom must not inherit: an import would bring the parent's Jackson/JUnit pins along")
        .isNull();
    assertThat(text(bom.getDocumentElement(), "version")).isEqualTo(text(parent.getDocumentElement(), "version"));

    TreeSet<String> listed = new TreeSet<>();
    for (Element dep : managedDependencies(bom)) {
      assertThat(text(dep, "groupId")).as("BOM entry %s", text(dep, "artifactId")).isEqualTo("io.infx");
      assertThat(text(dep, "version")).as("BOM entry %s", text(dep, "artifactId")).isEqualTo("${project.version}");
      assertThat(text(dep, "scope")).as("BOM entry %s imports nothing", text(dep, "artifactId")).isNull();
      listed.add(text(dep, "artifactId"));
    }

    TreeSet<String> published = new TreeSet<>();
    Map<String, String> unpublished = new TreeMap<>();
    for (Element module : children(child(parent.getDocumentElement(), "modules"), "module")) {
      Document pom = parse(ROOT.resolve(module.getTextContent().trim()).resolve("pom.xml"));
      String artifactId = text(pom.getDocumentElement(), "artifactId");
      if (artifactId.equals("infx-bom")) {
        continue;
      }
      Element props = child(pom.getDocumentElement(), "properties");
      boolean skipsInstall = props != null && "true".equals(text(props, "maven.install.skip"));
      boolean skipsDeploy = props != null && "true".equals(text(props, "maven.deploy.skip"));
      assertThat(skipsDeploy).as("%s: install and deploy are skipped together", artifactId).isEqualTo(skipsInstall);
      if (skipsInstall) {
        unpublished.put(artifactId, module.getTextContent().trim());
      } else {
        published.add(artifactId);
      }
    }

    assertThat(listed).as("infx-bom entries vs the installed reactor modules").isEqualTo(published);
    assertThat(unpublished).containsOnlyKeys("infx-examples", "infx-benchmarks");
  }

  private static List<Element> managedDependencies(Document pom) {
    Element dm = child(pom.getDocumentElement(), "dependencyManagement");
    assertThat(dm).as("infx-bom has a dependencyManagement").isNotNull();
    return children(child(dm, "dependencies"), "dependency");
  }

  private static Document parse(Path pom) throws Exception {
    assertThat(pom).exists();
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    try (var in = Files.newInputStream(pom)) {
      return f.newDocumentBuilder().parse(in);
    }
  }

  private static Element child(Element parent, String name) {
    List<Element> all = children(parent, name);
    return all.isEmpty() ? null : all.get(0);
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }

  private static String text(Element parent, String name) {
    Element e = child(parent, name);
    return e == null ? null : e.getTextContent().trim();
  }
}
