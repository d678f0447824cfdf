package io.infx.fleet.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class LifecycleTest {

  @Test
  void cleanupsRunLastInFirstOutExactlyOnce() {
    List<String> order = new ArrayList<>();
    Lifecycle life = new Lifecycle();
    life.onClose("cancel job", () -> order.add("cancel"));
    life.onClose("fetch outputs", () -> order.add("fetch")); // registered after cancel → runs first
    life.close();
    life.close();
    assertThat(order).containsExactly("fetch", "cancel");
    assertThat(life.exitCode()).isZero();
  }

  @Test
  void firstNonZeroCodeWins() {
    Lifecycle life = new Lifecycle();
    life.record(0);
    life.record(3);
    life.record(7);
    assertThat(life.exitCode()).isEqualTo(3);
  }

  @Test
  void failingCleanupTurnsSuccessIntoOneAndOthersStillRun() {
    List<String> order = new ArrayList<>();
    Lifecycle life = new Lifecycle();
    life.onClose("a", () -> order.add("a"));
    life.onClose("b", () -> {
      throw new IllegalStateException("boom");
    });
    life.close();
    assertThat(order).containsExactly("a");
    assertThat(life.exitCode()).isEqualTo(1);
    assertThat(life.events().firstError()).hasValueSatisfying(f -> {
      assertThat(f.kind()).isEqualTo(FailureKind.CLEANUP);
      assertThat(f.stage()).isEqualTo("cleanup:b");
      assertThat(f.message()).isEqualTo("boom");
    });
  }

  @Test
  void failingCleanupKeepsAnEarlierFailureCode() {
    Lifecycle life = new Lifecycle();
    life.record(5);
    life.onClose("b", () -> {
      throw new IllegalStateException("boom");
    });
    life.close();
    assertThat(life.exitCode()).isEqualTo(5);
  }

  @Test
  void signalRecords128PlusNAndRunsCleanupsOnce() {
    List<String> order = new ArrayList<>();
    Lifecycle life = new Lifecycle();
    life.onClose("cancel", () -> order.add("cancel"));
    assertThat(life.closeOnSignal(15)).isEqualTo(143);
    assertThat(life.closeOnSignal(2)).isEqualTo(143); // a second signal is held, not re-run
    assertThat(order).containsExactly("cancel");
    assertThat(life.events().firstError().orElseThrow().kind()).isEqualTo(FailureKind.CANCELLED);
  }

  @Test
  void eventsKeepTheFirstErrorAndTimeStages() throws Exception {
    JobEvents ev = new JobEvents();
    ev.identity("result_filename", "RF").identity("conc", 2);
    ev.run("submit", () -> { });
    try {
      ev.run("server", () -> {
        throw new BackendException("salloc: no allocation", true);
      });
    } catch (BackendException expected) {
      // recorded
    }
    ev.fail("client", FailureKind.CLIENT, "later error", 1);
    ev.finish("failed", 1);
    var json = ev.toJson();
    assertThat(json.get("identity").get("result_filename").asText()).isEqualTo("RF");
    assertThat(json.get("stages")).hasSize(2);
    assertThat(json.get("stages").get(1).get("ok").asBoolean()).isFalse();
    assertThat(json.get("error").get("stage").asText()).isEqualTo("server");
    assertThat(json.get("error").get("type").asText()).isEqualTo("scheduler");
    assertThat(json.get("error").get("retriable").asBoolean()).isTrue();
    assertThat(json.get("outcome").asText()).isEqualTo("failed");
  }

  @Test
  void aCloseDuringAStartWaitsForTheRegistrationSoTheStartedResourceIsStopped() throws Exception {
    // the SIGTERM-right-after-start race: close() must not run between start and registration
    Lifecycle life = new Lifecycle();
    CountDownLatch starting = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> stopped = new ArrayList<>();
    Thread launcher = new Thread(() -> life.startOwned("stop server", () -> {
      starting.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return "server-1";
    }, h -> () -> stopped.add(h)));
    launcher.start();
    assertThat(starting.await(30, TimeUnit.SECONDS)).isTrue();
    Thread closer = new Thread(life::close);
    closer.start();
    closer.join(200);
    assertThat(closer.isAlive()).as("close waits while the server is being started").isTrue();
    release.countDown();
    closer.join(TimeUnit.SECONDS.toMillis(30));
    launcher.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(stopped).containsExactly("server-1");
  }

  @Test
  void nothingStartsOnceClosing() {
    Lifecycle life = new Lifecycle();
    life.close();
    AtomicBoolean started = new AtomicBoolean();
    assertThatThrownBy(() -> life.startOwned("stop server", () -> {
      started.set(true);
      return "x";
    }, h -> () -> { })).isInstanceOf(IllegalStateException.class).hasMessageContaining("closing");
    assertThat(started).isFalse();
  }
}
