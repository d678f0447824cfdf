package io.infx.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.client.load.LoadModel;
import io.infx.client.load.VirtualTicker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The send loop on a virtual clock ({@link VirtualTicker}, shared with the AgentX schedule tests):
 * schedules are checked to the nanosecond, not the wall clock.
 */
class ArrivalDispatcherTest {

  record Send(int index, long intended, long at) {}

  private static List<Send> run(VirtualTicker ticker, long[] schedule, int n, int concurrency,
      long timeout) throws InterruptedException {
    List<Send> sends = new ArrayList<>();
    ArrivalDispatcher.Dispatch d = new ArrivalDispatcher(ticker).run(n, schedule, concurrency, timeout,
        (i, intended) -> {
          sends.add(new Send(i, intended, ticker.nanoTime()));
          return CompletableFuture.completedFuture(null);
        });
    assertThat(d.sent()).isEqualTo(sends.size());
    return sends;
  }

  @Test
  void openLoopSendsEachRequestExactlyAtItsScheduledInstant() throws Exception {
    VirtualTicker ticker = new VirtualTicker();
    long t0 = ticker.nanoTime();
    long[] schedule = LoadModel.constant(40).scheduleNanos(30, 0); // every 25 ms
    List<Send> sends = run(ticker, schedule, 30, -1, Long.MAX_VALUE);
    assertThat(sends).hasSize(30);
    for (int i = 0; i < 30; i++) {
      assertThat(sends.get(i).index()).isEqualTo(i);
      assertThat(sends.get(i).intended()).isEqualTo(t0 + i * 25_000_000L);
      assertThat(sends.get(i).at()).isEqualTo(sends.get(i).intended());
    }
  }

  @Test
  void poissonScheduleIsFollowedInOrderAndTheDeadlineCutsTheRest() throws Exception {
    VirtualTicker ticker = new VirtualTicker();
    long t0 = ticker.nanoTime();
    long[] schedule = LoadModel.poisson(10).scheduleNanos(200, 7);
    long timeout = 5_000_000_000L;
    List<Send> sends = run(ticker, schedule, 200, -1, timeout);
    long due = java.util.Arrays.stream(schedule).filter(s -> s <= timeout).count();
    assertThat(sends).hasSize((int) due);
    for (Send s : sends) {
      assertThat(s.at()).isEqualTo(t0 + schedule[s.index()]);
    }
  }

  @Test
  void closedLoopIntendsEachSendWhenItsSlotFreed() throws Exception {
    VirtualTicker ticker = new VirtualTicker();
    long t0 = ticker.nanoTime();
    List<Send> sends = run(ticker, null, 5, 2, Long.MAX_VALUE);
    // requests finish at once, so every slot frees at t0 and every send is due at t0
    assertThat(sends).extracting(Send::intended).containsOnly(t0);
  }

  @Test
  void ceilingHoldsTheNextSendUntilARequestCompletes() throws Exception {
    VirtualTicker ticker = new VirtualTicker();
    List<CompletableFuture<Void>> inFlight = new ArrayList<>();
    List<Integer> sent = new ArrayList<>();
    Thread loop = new Thread(() -> {
      try {
        new ArrivalDispatcher(ticker).run(3, new long[] {0, 0, 0}, 2, Long.MAX_VALUE, (i, at) -> {
          CompletableFuture<Void> f = new CompletableFuture<>();
          synchronized (inFlight) {
            inFlight.add(f);
            sent.add(i);
          }
          return f;
        });
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    loop.start();
    loop.join(300);
    synchronized (inFlight) {
      assertThat(sent).containsExactly(0, 1); // the third waits for a slot
      inFlight.get(0).complete(null);
    }
    loop.join(10_000);
    assertThat(loop.isAlive()).isFalse();
    assertThat(sent).containsExactly(0, 1, 2);
  }
}
