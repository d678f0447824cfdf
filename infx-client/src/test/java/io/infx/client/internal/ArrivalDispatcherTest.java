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

  /** A clock moved only by the test's fake I/O thread (no waits in a closed loop). */
  static final class ManualTicker implements io.infx.client.load.Ticker {
    private final java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(1_000);

    @Override
    public long nanoTime() {
      return now.get();
    }

    void advance(long nanos) {
      now.addAndGet(nanos);
    }

    @Override
    public boolean awaitUntil(long targetNanos, long deadlineNanos) {
      throw new AssertionError("a closed loop never waits for a send time");
    }
  }

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

  /**
   * Closed loop with requests completed by another thread (as the HTTP client's I/O thread
   * does): after the first wave, which the loop's thread sends, each next request is sent by the
   * thread that completed the previous one, in index order, intended at its completion, with
   * never more than the concurrency in flight.
   */
  @Test
  void closedLoopSendsTheNextRequestOnTheCompletingThread() throws Exception {
    ManualTicker ticker = new ManualTicker();
    int n = 16; // within the lookahead: every body is built before the first completion
    int conc = 4;
    java.util.concurrent.CountDownLatch allPrepared = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.ExecutorService io = java.util.concurrent.Executors.newSingleThreadExecutor(
        r -> new Thread(r, "fake-io"));
    List<String> threads = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Integer> order = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Integer> prepared = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger maxInFlight = new java.util.concurrent.atomic.AtomicInteger();
    long[] intended = new long[n];
    long[] completedAt = new long[n];
    ArrivalDispatcher.Dispatch d;
    try {
      d = new ArrivalDispatcher(ticker).run(n, null, conc, Long.MAX_VALUE,
          new ArrivalDispatcher.Sender() {
            @Override
            public void prepare(int i) {
              prepared.add(i);
              if (i == n - 1) {
                allPrepared.countDown();
              }
            }

            @Override
            public CompletableFuture<?> send(int i, long at) {
              assertThat(prepared).contains(i); // prepared before it is sent
              threads.add(Thread.currentThread().getName());
              order.add(i);
              intended[i] = at;
              maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
              CompletableFuture<Void> f = new CompletableFuture<>();
              io.execute(() -> {
                try {
                  allPrepared.await(); // completions only once the loop has nothing left to build
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                ticker.advance(1_000_000L * (i % 3 + 1));
                completedAt[i] = ticker.nanoTime();
                inFlight.decrementAndGet();
                f.complete(null);
              });
              return f;
            }
          });
      io.submit(() -> { }).get(); // the last completions
    } finally {
      io.shutdown();
    }
    assertThat(d.sent()).isEqualTo(n);
    assertThat(order).containsExactlyElementsOf(java.util.stream.IntStream.range(0, n).boxed().toList());
    assertThat(prepared).containsExactlyElementsOf(order);
    assertThat(maxInFlight.get()).isLessThanOrEqualTo(conc);
    // the first wave leaves from the loop's thread, every later request from the completing one
    assertThat(threads.subList(0, conc)).doesNotContain("fake-io");
    assertThat(threads.subList(conc, n)).containsOnly("fake-io");
    for (int i = conc; i < n; i++) {
      if (threads.get(i).equals("fake-io")) {
        // sent when a slot freed: at some earlier request's completion instant
        long at = intended[i];
        assertThat(java.util.Arrays.stream(completedAt, 0, i).anyMatch(c -> c == at))
            .as("request %d intended at a completion", i).isTrue();
      }
    }
  }

  /** A stop ends a closed loop whose requests complete on another thread; nothing more is sent. */
  @Test
  void closedLoopStopsSendingOnceStopped() throws Exception {
    ManualTicker ticker = new ManualTicker();
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.ExecutorService io = java.util.concurrent.Executors.newSingleThreadExecutor();
    java.util.concurrent.atomic.AtomicInteger sends = new java.util.concurrent.atomic.AtomicInteger();
    ArrivalDispatcher.Dispatch d;
    try {
      d = new ArrivalDispatcher(ticker).stopWhen(stop::get).run(1000, null, 2, Long.MAX_VALUE,
          (i, at) -> {
            if (sends.incrementAndGet() == 10) {
              stop.set(true);
            }
            CompletableFuture<Void> f = new CompletableFuture<>();
            io.execute(() -> f.complete(null));
            return f;
          });
      io.submit(() -> { }).get();
    } finally {
      io.shutdown();
    }
    assertThat(d.sent()).isEqualTo(sends.get()).isBetween(10, 11);
  }
}
