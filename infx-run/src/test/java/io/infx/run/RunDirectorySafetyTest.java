package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.InfxException;
import io.infx.core.io.DirectoryLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11: two {@code infx run} on the same {@code --out} both "succeeded" and left it
 * inconsistent; an unusable {@code --out} was found only after the points ran.
 */
class RunDirectorySafetyTest {

  @TempDir Path tmp;
  private Path cfg;
  private final List<String> launched = new CopyOnWriteArrayList<>();

  @BeforeEach
  void configs() throws Exception {
    cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 1024, 1024, "[1, 2]"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);
  }

  private BenchmarkRun run(Path out) {
    return BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(out).title("t").build(),
        (p, work, log) -> {
          launched.add(p.resultFilename());
          return PointResult.failed("not launched in this test");
        });
  }

  @Test
  void aSecondRunOnALockedDirectoryIsRefusedBeforeLaunchingAnything() {
    Path out = tmp.resolve("out");
    try (DirectoryLock held = DirectoryLock.acquire(out, "infx run")) {
      assertThatThrownBy(() -> run(out).run(new RunListener() { }))
          .isInstanceOf(InfxException.class)
          .hasMessageContaining("in use by another infx run");
    }
    assertThat(launched).isEmpty();
    assertThat(out.resolve("matrix.json")).doesNotExist();
  }

  @Test
  void anOutputPathThatCannotHoldResultsFailsBeforeAnyPoint() throws Exception {
    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    assertThatThrownBy(() -> run(file.resolve("out")).run(new RunListener() { }))
        .isInstanceOf(InfxException.class);
    assertThat(launched).isEmpty();
  }

  @Test
  void theLockIsReleasedAfterARun() {
    Path out = tmp.resolve("out");
    run(out).run(new RunListener() { });
    assertThat(launched).hasSize(2);
    try (DirectoryLock again = DirectoryLock.acquire(out, "infx run")) {
      assertThat(again.file()).exists();
    }
  }
}
