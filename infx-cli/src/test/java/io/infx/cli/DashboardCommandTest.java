package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code infx dashboard}: serves a store, prints its URL, stops after --for; bad ports are usage errors. */
class DashboardCommandTest {

  @TempDir Path tmp;

  @Test
  void servesAStoreForAWhileAndPrintsTheUrl() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = Main.run(new String[] {"dashboard", "--db", tmp.resolve("s.mv.db").toString(), "--port", "0",
        "--for", "1s"}, new PrintWriter(out), new PrintWriter(err));
    assertThat(rc).as(err.toString()).isZero();
    assertThat(out.toString()).matches("http://127\\.0\\.0\\.1:\\d+/\\s*");
    assertThat(err.toString()).contains("infx dashboard: serving");

    int bad = Main.run(new String[] {"dashboard", "--db", tmp.resolve("s.mv.db").toString(), "--port", "70000"},
        new PrintWriter(new StringWriter()), new PrintWriter(err));
    assertThat(bad).isEqualTo(2);
  }
}
