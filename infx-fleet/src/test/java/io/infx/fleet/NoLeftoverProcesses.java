package io.infx.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaves a child process of the test JVM running. A process that is exiting is
 * given two seconds to disappear.
 */
public final class NoLeftoverProcesses implements AfterEachCallback {

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    List<ProcessHandle> left = alive();
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
      left = alive();
    }
    assertThat(left.stream().map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList())
        .as("child processes left running by %s", context.getDisplayName()).isEmpty();
  }

  private static List<ProcessHandle> alive() {
    return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
  }
}
