package io.infx.client.agentx.internal;

import io.infx.client.RequestRecord;
import io.infx.client.agentx.AgenticOptions;
import io.infx.client.agentx.AgenticProgress;
import io.infx.client.agentx.TraceRequest;
import io.infx.client.agentx.WekaTrace;
import io.infx.client.load.Ticker;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AgentX lane scheduler (spec {@code agentx.md} §1.2–§1.7): {@code users} lanes each holding one
 * live session tree; warmup (a primer per lane with the full history before a seeded start point,
 * then N one-token requests per lane continuing the trees, with recorded idle removed); profiling
 * with recorded end-to-start gaps, subagents at their recorded offsets, joins, per-tree and
 * whole-system idle caps; recycling of drained lanes from turn 0 of a new play; a bounded drain.
 *
 * <p>The engine runs a {@link ReplaySpec} (what to replay, decided up front); it owns only the
 * schedule. Time comes from a {@link Ticker}, the same clock type as the open-loop dispatcher's, so
 * the schedule (session starts, recorded gaps, spawns and joins, idle caps, the window and the
 * drain) is tested exactly on a virtual clock; records are built by {@link ReplayRecords}.
 *
 * <p>All scheduling state is owned by the thread that calls {@link #run()}: completions and
 * prepared bodies arrive as events on a queue, so no lock is taken on the hot path. Prompt bodies
 * are synthesized ahead of their due time on the preparation executor (two worker threads by
 * {@link #create}), at most {@link #PREPARE_LEAD_NANOS} early, so memory holds only the bodies
 * about to be sent.
 */
public final class ReplayEngine {

  private static final Logger LOG = LoggerFactory.getLogger(ReplayEngine.class);

  /** Bodies are built at most this long before their due time. */
  static final long PREPARE_LEAD_NANOS = 200_000_000L;
  /**
   * Memory for turns prepared while their predecessor is still in flight (their content does not
   * depend on the server's reply), so even a turn with no recorded gap is sent the moment it is due.
   */
  static final long EARLY_BUDGET_BYTES = 64L << 20;
  /** The live error threshold applies once this many profiling requests completed. */
  static final int LIVE_THRESHOLD_MIN_REQUESTS = 10;
  /** The scheduler re-checks its state at least this often (stop requests, the window's end). */
  static final long MAX_PARK_NANOS = 50_000_000L;

  /** {@link AgenticOptions#progress()} hears from the run this often, and at each phase change. */
  static final long PROGRESS_INTERVAL_NANOS = 1_000_000_000L;

  enum Phase { WARMUP, PROFILING, DRAIN, DONE }


  /** The outcome of a run. */
  public record Outcome(ReplayStats stats, Instant start, Instant end, Instant profilingStart,
      Instant profilingEnd, boolean cancelled, String cancelReason, int lanes, int plays) {}

  private final AgenticOptions options;
  private final List<TracePlan> initialPool;
  private final List<TracePlan> recyclePool;
  private final Transport transport;
  private final PromptWriter writer;
  private final Consumer<ReplayRecord> sink;
  private final ReplayStats stats = new ReplayStats();
  private final String runId;
  private final Random rng;
  private final Ticker ticker;
  private final long nanoBase;
  private final long epochBase;
  private final ConcurrentLinkedQueue<Runnable> events = new ConcurrentLinkedQueue<>();
  private final TreeSet<Pending> pending = new TreeSet<>();
  private final Set<Play> touched = new HashSet<>();
  private final List<Pending> dueScratch = new ArrayList<>();
  private final Executor prep;
  private final ServerMetricsScraper scraper;
  private volatile Thread scheduler;

  private Phase phase = Phase.WARMUP;
  private Lane[] lanes;
  private int[] order;
  private int cursor;
  private int epoch;
  private long seq;
  private int inFlight;
  private int plays;
  private long profilingStart;
  private long profilingEnd;
  private long drainDeadline;
  private long warmupDeadline = Long.MAX_VALUE;
  private long preparedBytes;
  private long liveCompleted;
  private long liveErrors;
  private long warmupErrors;
  /** The phase of the latest progress snapshot ({@code null} before the first), when it began, the next one due. */
  private Phase reportedPhase;
  private long reportedPhaseStart;
  private long nextReport = Long.MAX_VALUE;
  private boolean cancelled;
  private String cancelReason = "";
  private InfxException abort;
  private final long durationNanos;
  private final long graceNanos;
  private final long treeCapNanos;
  private final long systemCapNanos;

  /**
   * An engine on the system clock, preparing prompts on two worker threads ({@link #close()} stops
   * them).
   *
   * @param scraper the server-metrics scraper started and stopped with the window, or {@code null}
   */
  static ReplayEngine create(ReplaySpec spec, Transport transport, Consumer<ReplayRecord> sink,
      ServerMetricsScraper scraper) {
    ExecutorService prep = Executors.newFixedThreadPool(2, r -> {
      Thread th = new Thread(r, "infx-agentx-prompts");
      th.setDaemon(true);
      return th;
    });
    return new ReplayEngine(spec, transport, sink, scraper, Ticker.system(), prep);
  }

  /**
   * An engine on {@code ticker}: the transport's {@link RequestRecord} readings must come from the
   * same clock.
   *
   * @param prep where prompt bodies are synthesized (a direct executor makes a run deterministic)
   */
  ReplayEngine(ReplaySpec spec, Transport transport, Consumer<ReplayRecord> sink,
      ServerMetricsScraper scraper, Ticker ticker, Executor prep) {
    this.options = spec.options();
    this.scraper = scraper;
    this.transport = Objects.requireNonNull(transport, "transport");
    this.sink = Objects.requireNonNull(sink, "sink");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.prep = Objects.requireNonNull(prep, "prep");
    this.runId = spec.runId();
    this.rng = new Random(options.seed());
    this.nanoBase = ticker.nanoTime();
    Instant wallNow = ticker.wallTime();
    this.epochBase = wallNow.getEpochSecond() * 1_000_000_000L + wallNow.getNano();
    this.recyclePool = spec.recyclePool();
    this.initialPool = spec.initialPool();
    this.writer = new PromptWriter(new BlockText(options.seed(), options.tokenizer().orElse(null)),
        spec.blockSize(), options.model(), options.extraBody());
    this.durationNanos = options.duration().toNanos();
    this.graceNanos = options.grace().toNanos();
    this.treeCapNanos = options.traceIdleGapCap().toNanos();
    this.systemCapNanos = options.systemIdleGapCap().toNanos();
  }

  // ---------------------------------------------------------------- state

  private final class Lane {
    final int index;
    int recyclePass;
    Play play;
    boolean primerSent;
    int warmupIssued;
    boolean frozen;
    /** The lane's next play, drawn and its first turn prepared before the current one drains. */
    Play nextPlay;

    Lane(int index) {
      this.index = index;
    }
  }

  private final class Play {
    final Lane lane;
    final TracePlan plan;
    final int number;
    final String marker;
    final long namespace;
    final String rootCorrelation;
    int liveSessions;
    int inFlight;
    Session root;
    final List<Pending> waiting = new ArrayList<>();

    Play(Lane lane, TracePlan plan, int number, int pass) {
      this.lane = lane;
      this.plan = plan;
      this.number = number;
      this.marker = marker(runId, lane.index, pass, plan.trace().id());
      this.namespace = plan.trace().scope() == WekaTrace.HashIdScope.GLOBAL ? 0 : BlockText.hash(plan.trace().id());
      this.rootCorrelation = UUID.randomUUID().toString();
    }
  }

  private final class Session {
    final Play play;
    final Conversation conv;
    final Session parent;
    final Conversation.Child asChild;
    final String correlationId;
    final Transcript transcript = new Transcript();
    final int[] joinPending;
    final long[] joinReady;
    final int firstTurn;
    int advanced = -1;
    int next;
    long prevEnd;
    boolean inFlight;
    boolean ended;
    boolean done;
    Pending pendingTurn;
    /** The next turn, prepared while this one is in flight. */
    Pending early;

    Session(Play play, Conversation conv, Session parent, Conversation.Child asChild, int firstTurn,
        long firstReady) {
      this.play = play;
      this.conv = conv;
      this.parent = parent;
      this.asChild = asChild;
      this.correlationId = parent == null ? play.rootCorrelation : UUID.randomUUID().toString();
      this.joinPending = new int[conv.size()];
      this.joinReady = new long[conv.size()];
      this.firstTurn = firstTurn;
      this.next = firstTurn;
      this.prevEnd = firstReady;
      play.liveSessions++;
    }
  }

  /** A turn waiting to be sent. Ordered by due time. */
  private final class Pending implements Comparable<Pending> {
    final Session session;
    final int turn;
    final boolean primer;
    final long id = seq++;
    long due;
    long delay;
    boolean building;
    boolean built;
    boolean builtForWarmup;
    boolean sendWhenReady;
    boolean discarded;
    boolean wasEarly;
    byte[] body;
    int contentTokens;

    Pending(Session session, int turn, boolean primer, long due, long delay) {
      this.session = session;
      this.turn = turn;
      this.primer = primer;
      this.due = due;
      this.delay = delay;
    }

    @Override
    public int compareTo(Pending o) {
      int c = Long.compare(due, o.due);
      return c != 0 ? c : Long.compare(id, o.id);
    }
  }

  // ---------------------------------------------------------------- run

  /** Runs warmup, profiling and the drain; blocks until done. */
  Outcome run() {
    scheduler = Thread.currentThread();
    Instant start = instant(now());
    try {
      order = shuffled(recyclePool.size());
      lanes = new Lane[options.users()];
      int[] initialOrder = shuffled(initialPool.size());
      for (int i = 0; i < lanes.length; i++) {
        lanes[i] = new Lane(i);
        TracePlan plan = initialPool.get(initialOrder[i % initialOrder.length]);
        startInitialPlay(lanes[i], plan, now());
      }
      if (options.users() > initialPool.size()) {
        LOG.warn("{} lanes share {} usable traces: traces are replayed by several lanes at once "
            + "(each play has its own cache-bust marker)", options.users(), initialPool.size());
      }
      loop();
      if (abort == null) {
        reportFinalProgress();
      }
    } finally {
      if (prep instanceof ExecutorService pool) {
        pool.shutdownNow();
      }
    }
    Instant end = instant(now());
    if (abort != null) {
      throw abort;
    }
    return new Outcome(stats, start, end, instant(profilingStart), instant(profilingEnd), cancelled,
        cancelReason, lanes.length, plays);
  }

  private void loop() {
    while (phase != Phase.DONE) {
      long now = now();
      Runnable e;
      while ((e = events.poll()) != null) {
        e.run();
        if (abort != null) {
          shutdownNow();
          return;
        }
      }
      now = now();
      checkStop(now);
      advancePhase(now);
      if (phase == Phase.DONE) {
        break;
      }
      dispatchDue(now);
      if (phase == Phase.PROFILING) {
        applyIdleCaps(now());
      }
      reportProgress(now());
      touched.clear();
      long before = now();
      long wake = nextWake(before);
      if (wake > before && events.isEmpty()) {
        ticker.parkUntil(Math.min(wake, before + MAX_PARK_NANOS));
      }
    }
  }

  private boolean stopHandled;

  /** A stop request (SIGINT/SIGTERM) ends the run like a cancellation: drain, then export. */
  private void checkStop(long now) {
    if (stopHandled || options.stop().isEmpty() || !options.stop().get().isRequested()) {
      return;
    }
    stopHandled = true;
    if (phase == Phase.DONE || phase == Phase.DRAIN) {
      return;
    }
    cancelled = true;
    cancelReason = "interrupted by " + options.stop().get().reason().orElse("a stop request");
    LOG.warn("{}: no new requests; draining {} in flight (grace {} s)", cancelReason, inFlight,
        graceNanos / 1e9);
    if (scraper != null) {
      scraper.stop();
    }
    phase = Phase.DRAIN;
    drainDeadline = now + graceNanos;
  }

  private void advancePhase(long now) {
    switch (phase) {
      case WARMUP -> {
        boolean allFrozen = true;
        for (Lane l : lanes) {
          allFrozen &= l.frozen;
        }
        if (allFrozen && warmupDeadline == Long.MAX_VALUE) {
          warmupDeadline = now + options.warmupGrace().toNanos();
          // prepare every waiting turn for profiling while the last warmup requests drain
          for (Pending p : pending) {
            if (!p.building && !(p.built && !p.builtForWarmup)) {
              build(p, false);
            }
          }
        }
        if (allFrozen && (inFlight == 0 || now >= warmupDeadline)) {
          startProfiling(now);
        }
      }
      case PROFILING -> {
        if (now >= profilingEnd) {
          if (scraper != null) {
            scraper.stop();
          }
          phase = Phase.DRAIN;
          drainDeadline = now + graceNanos;
          LOG.info("profiling window ended; draining {} in-flight requests (grace {} s)", inFlight,
              graceNanos / 1e9);
        }
      }
      case DRAIN -> {
        if (inFlight == 0) {
          phase = Phase.DONE;
        } else if (now >= drainDeadline) {
          shutdownNow();
          phase = Phase.DONE;
        }
      }
      default -> { }
    }
  }

  private void startProfiling(long now) {
    phase = Phase.PROFILING;
    profilingStart = now;
    profilingEnd = now + durationNanos;
    // resume every tree from its warmed state, preserving each pending turn's recorded offset
    List<Pending> all = new ArrayList<>(pending);
    pending.clear();
    for (Pending p : all) {
      p.due = now + p.delay;
      pending.add(p);
    }
    if (scraper != null) {
      scraper.start();
    }
    LOG.info("warmup done ({} records); profiling {} lanes for {} s", stats.warmupRecords,
        lanes.length, durationNanos / 1e9);
  }

  /** Cancels everything in flight and waits (bounded) for the cancelled records. */
  private void shutdownNow() {
    transport.close();
    long until = now() + 5_000_000_000L;
    while (inFlight > 0 && now() < until) {
      Runnable e;
      while ((e = events.poll()) != null) {
        e.run();
      }
      if (inFlight > 0 && events.isEmpty()) {
        ticker.parkUntil(Math.min(until, now() + 1_000_000L));
      }
    }
  }

  /** The schedule's next instant, or the next progress snapshot when that comes first. */
  private long nextWake(long now) {
    return Math.min(nextScheduleWake(now), nextReport);
  }

  private long nextScheduleWake(long now) {
    long wake = now + MAX_PARK_NANOS;
    if (phase == Phase.DRAIN) {
      return Math.min(wake, drainDeadline);
    }
    if (phase != Phase.PROFILING) {
      return wake; // warmup is driven by events: dispatchable turns were sent at once
    }
    wake = Math.min(wake, profilingEnd);
    for (Pending p : pending) {
      if (p.built || p.building) {
        if (p.due > now) {
          wake = Math.min(wake, p.due);
          break;
        }
        continue;
      }
      wake = Math.min(wake, p.due - PREPARE_LEAD_NANOS);
      break;
    }
    return wake;
  }

  // ---------------------------------------------------------------- progress

  /**
   * Tells {@link AgenticOptions#progress()} where the run is: at the start of each phase and every
   * {@link #PROGRESS_INTERVAL_NANOS} of it after (the loop wakes for it, so on a virtual clock the
   * snapshots fall exactly on those instants), and once more as a phase ends, with its final
   * counts and no time left.
   */
  private void reportProgress(long now) {
    if (options.progress().isEmpty() || phase == Phase.DONE) {
      return;
    }
    if (phase != reportedPhase) {
      if (reportedPhase != null) {
        // the phase that just ended, with its final counts (e.g. the whole warmup quota)
        options.progress().get().onProgress(snapshot(reportedPhase, now, true));
      }
      reportedPhase = phase;
      reportedPhaseStart = phase == Phase.PROFILING ? profilingStart : now;
      nextReport = reportedPhaseStart;
    }
    if (now < nextReport) {
      return;
    }
    long intervals = (now - reportedPhaseStart) / PROGRESS_INTERVAL_NANOS + 1;
    nextReport = reportedPhaseStart + intervals * PROGRESS_INTERVAL_NANOS;
    options.progress().get().onProgress(snapshot(phase, now, false));
  }

  /** One last snapshot when the run is over: the final counts, no time left. */
  private void reportFinalProgress() {
    if (options.progress().isEmpty() || reportedPhase == null) {
      return;
    }
    options.progress().get().onProgress(snapshot(reportedPhase, Math.max(now(), reportedPhaseStart), true));
  }

  /** @param over the phase {@code p} has ended: nothing of it is left */
  private AgenticProgress snapshot(Phase p, long now, boolean over) {
    Duration elapsed = Duration.ofNanos(Math.max(0, now - reportedPhaseStart));
    return switch (p) {
      case WARMUP -> new AgenticProgress(AgenticProgress.Phase.WARMUP, stats.warmupRecords,
          warmupErrors, inFlight, elapsed,
          // no clock bounds the warmup until every lane has sent its quota; then the grace does
          over ? Optional.of(Duration.ZERO) : warmupDeadline == Long.MAX_VALUE ? Optional.empty()
              : Optional.of(Duration.ofNanos(Math.max(0, warmupDeadline - now))),
          (long) lanes.length * (1 + options.warmupRequestsPerLane()));
      case PROFILING -> new AgenticProgress(AgenticProgress.Phase.PROFILING, liveCompleted,
          liveErrors, inFlight, elapsed,
          Optional.of(over ? Duration.ZERO : Duration.ofNanos(Math.max(0, profilingEnd - now))), 0);
      case DRAIN, DONE -> new AgenticProgress(AgenticProgress.Phase.DRAIN, liveCompleted, liveErrors,
          inFlight, elapsed,
          Optional.of(over ? Duration.ZERO : Duration.ofNanos(Math.max(0, drainDeadline - now))), 0);
    };
  }

  // ---------------------------------------------------------------- plays and sessions

  private void startInitialPlay(Lane lane, TracePlan plan, long now) {
    Play play = new Play(lane, plan, plays++, lane.recyclePass);
    lane.play = play;
    Conversation root = plan.root();
    int primer = primerTurn(root);
    Session s = new Session(play, root, null, null, primer, now);
    play.root = s;
    for (int i = 0; i < primer; i++) {
      s.transcript.advance(root.turn(i), systemTokens(play), plan.trace().blockSize());
    }
    s.advanced = primer - 1;
    Pending p = new Pending(s, primer, true, now, 0);
    add(p);
  }

  private void startRecycledPlay(Lane lane, long now) {
    Play play = lane.nextPlay != null ? lane.nextPlay : drawNextPlay(lane);
    lane.nextPlay = null;
    lane.recyclePass++;
    lane.play = play;
    Session root = play.root;
    root.prevEnd = now;
    Pending first = root.early;
    if (first != null) {
      root.early = null;
      first.due = now;
      first.delay = 0;
      add(first);
    } else {
      scheduleNext(root, now);
    }
  }

  /** Draws the lane's next trace from the sampler and creates its play (not started). */
  private Play drawNextPlay(Lane lane) {
    if (cursor >= order.length) {
      cursor = 0;
      epoch++;
      order = shuffled(recyclePool.size());
    }
    TracePlan plan = recyclePool.get(order[cursor++]);
    Play play = new Play(lane, plan, plays++, lane.recyclePass + 1);
    play.root = new Session(play, plan.root(), null, null, 0, 0);
    return play;
  }

  /** Draws the lane's next play and prepares its first turn, within the early budget. */
  private void prepareNextPlay(Lane lane) {
    if (phase != Phase.PROFILING || lane.nextPlay != null) {
      return;
    }
    Play next = drawNextPlay(lane);
    lane.nextPlay = next;
    long estimate = (long) next.plan.root().turn(0).inputTokens() * 4 + 512;
    if (preparedBytes + estimate <= EARLY_BUDGET_BYTES) {
      Pending e = new Pending(next.root, 0, false, Long.MAX_VALUE, 0);
      e.wasEarly = true;
      next.root.early = e;
      build(e, false);
    }
  }

  /** The last turn before t*, drawn uniformly in [min, max] of the root's recorded span. */
  private int primerTurn(Conversation root) {
    double r = options.startRatioMin() + rng.nextDouble() * (options.startRatioMax() - options.startRatioMin());
    double t0 = root.turn(0).t();
    double tStar = t0 + r * (root.turn(root.size() - 1).t() - t0);
    int primer = 0;
    for (int i = 0; i < root.size(); i++) {
      if (root.turn(i).t() < tStar) {
        primer = i;
      }
    }
    return Math.min(primer, root.size() - 2);
  }

  private int systemTokens(Play play) {
    return play.plan.trace().toolTokens() + play.plan.trace().systemTokens();
  }

  /** Queues the session's next turn when its predecessors (and joined children) allow it. */
  private void scheduleNext(Session s, long now) {
    if (s.done || s.inFlight || s.pendingTurn != null) {
      return;
    }
    if (s.ended || s.next >= s.conv.size()) {
      finishSession(s, now);
      return;
    }
    int k = s.next;
    if (s.joinPending[k] > 0) {
      return;
    }
    long gap = k == s.firstTurn ? 0 : seconds(s.conv.gapBefore(k));
    long ready = Math.max(s.prevEnd + gap, s.joinReady[k]);
    long delay = Math.max(0, ready - now);
    long due = phase == Phase.PROFILING ? now + delay : now;
    Pending p = s.early;
    if (p != null && p.turn == k) {
      s.early = null;
      p.due = due;
      p.delay = delay;
    } else {
      discardEarly(s);
      p = new Pending(s, k, false, due, delay);
    }
    add(p);
  }

  private void discardEarly(Session s) {
    Pending e = s.early;
    if (e != null) {
      s.early = null;
      e.discarded = true;
      if (e.body != null) {
        preparedBytes -= e.body.length;
        e.body = null;
      }
    }
  }

  private void add(Pending p) {
    p.session.pendingTurn = p;
    p.session.play.waiting.add(p);
    pending.add(p);
    touched.add(p.session.play);
    if (phase == Phase.WARMUP && warmupDeadline != Long.MAX_VALUE && !p.building && !p.built) {
      build(p, false); // warmup is draining: this turn is sent in the profiling phase
    }
  }

  private void remove(Pending p) {
    pending.remove(p);
    p.session.play.waiting.remove(p);
    p.session.pendingTurn = null;
  }

  private void finishSession(Session s, long now) {
    if (s.done) {
      return;
    }
    s.done = true;
    discardEarly(s);
    Play play = s.play;
    play.liveSessions--;
    if (s.parent != null && !s.asChild.background()) {
      Session parent = s.parent;
      int j = s.asChild.joinTurn();
      parent.joinPending[j]--;
      long end = Math.min(now, s.prevEnd);
      parent.joinReady[j] = Math.max(parent.joinReady[j], end + seconds(s.asChild.joinDelay()));
      scheduleNext(parent, now);
    }
    if (play.liveSessions == 0 && play.lane.play == play) {
      // the whole tree drained: the lane starts a new play from turn 0
      if (phase == Phase.WARMUP || phase == Phase.PROFILING) {
        startRecycledPlay(play.lane, now);
      }
    }
  }

  // ---------------------------------------------------------------- dispatch

  private void dispatchDue(long now) {
    if (phase == Phase.DRAIN || phase == Phase.DONE) {
      return;
    }
    List<Pending> due = dueScratch;
    due.clear();
    for (Pending p : pending) {
      if (phase == Phase.PROFILING && p.due - PREPARE_LEAD_NANOS > now) {
        break;
      }
      if (phase == Phase.WARMUP && p.session.play.lane.frozen) {
        continue;
      }
      due.add(p);
    }
    for (Pending p : due) {
      boolean warmup = phase == Phase.WARMUP;
      if (!p.building && (!p.built || p.builtForWarmup != warmup)) {
        build(p, warmup);
      }
      if (phase == Phase.WARMUP || p.due <= now) {
        if (p.built && !p.building && p.builtForWarmup == warmup) {
          send(p, now());
        } else {
          if (!p.sendWhenReady && phase == Phase.PROFILING) {
            stats.bodiesLate++;
          }
          p.sendWhenReady = true;
        }
      }
    }
  }

  private void build(Pending p, boolean warmup) {
    if (p.body != null) {
      preparedBytes -= p.body.length;
      p.body = null;
    }
    p.building = true;
    p.built = false;
    p.builtForWarmup = warmup;
    Session s = p.session;
    prep.execute(() -> {
      byte[] body;
      int tokens;
      try {
        TracePlan plan = s.play.plan;
        if (s.advanced < p.turn) {
          s.transcript.advance(s.conv.turn(p.turn), systemTokens(s.play), plan.trace().blockSize());
          s.advanced = p.turn;
        }
        TraceRequest r = s.conv.turn(p.turn);
        PromptWriter.Body b = writer.write(s.play.namespace, s.transcript.messages(), r.inputTokens(),
            s.play.marker,
            BlockText.mix(BlockText.hash(s.conv.id()), ((long) s.play.number << 20) + p.turn),
            warmup ? 1 : Math.max(1, r.outputTokens()));
        body = b.bytes();
        tokens = b.contentTokens();
      } catch (RuntimeException e) {
        events.add(() -> abort = new InfxException(ErrorKind.AGENTX, "cannot synthesize the prompt of "
            + s.conv.id() + " turn " + p.turn + ": " + e));
        wake();
        return;
      }
      events.add(() -> {
        p.building = false;
        if (p.discarded) {
          return;
        }
        p.body = body;
        preparedBytes += body.length;
        p.contentTokens = tokens;
        p.built = true;
        if (p.sendWhenReady && pending.contains(p) && p.builtForWarmup == (phase == Phase.WARMUP)
            && phase != Phase.DRAIN && phase != Phase.DONE) {
          send(p, now());
        }
      });
      wake();
    });
  }

  private void send(Pending p, long now) {
    Session s = p.session;
    Play play = s.play;
    Lane lane = play.lane;
    remove(p);
    boolean warmup = phase == Phase.WARMUP;
    if (warmup) {
      if (p.primer) {
        lane.primerSent = true;
      } else {
        lane.warmupIssued++;
      }
      if (lane.primerSent && lane.warmupIssued >= options.warmupRequestsPerLane()) {
        lane.frozen = true;
      }
    }
    s.inFlight = true;
    s.next = p.turn + 1;
    play.inFlight++;
    inFlight++;
    String requestId = UUID.randomUUID().toString();
    List<Map.Entry<String, String>> headers = headers(s, requestId);
    long intended = warmup ? now : p.due;
    int contentTokens = p.contentTokens;
    byte[] body = p.body;
    p.body = null;
    preparedBytes -= body.length;
    prepareEarly(s, p.turn + 1);
    if (s.parent == null && p.turn == s.conv.size() - 1) {
      prepareNextPlay(lane);
    }
    // children start at their recorded offset from this turn's start
    for (Conversation.Child c : s.conv.spawnedBy(p.turn)) {
      spawn(s, c, now);
    }
    long sendWall = wall(now);
    transport.send(body, contentTokens, headers, warmup, intended).whenComplete((rec, ex) -> {
      events.add(() -> complete(p, s, rec, ex, warmup, requestId, contentTokens, intended, sendWall));
      wake();
    });
  }

  /** Prepares turn {@code k} of {@code s} now, if it exists and the early budget allows. */
  private void prepareEarly(Session s, int k) {
    if (phase != Phase.PROFILING || s.ended || k >= s.conv.size() || s.early != null) {
      return;
    }
    long estimate = (long) s.conv.turn(k).inputTokens() * 4 + 512;
    if (preparedBytes + estimate > EARLY_BUDGET_BYTES) {
      return;
    }
    Pending e = new Pending(s, k, false, Long.MAX_VALUE, 0);
    e.wasEarly = true;
    s.early = e;
    build(e, false);
  }

  private void spawn(Session parent, Conversation.Child c, long now) {
    Session child = new Session(parent.play, c.conversation(), parent, c, 0,
        now + seconds(c.spawnDelay()));
    if (!c.background()) {
      parent.joinPending[c.joinTurn()]++;
    }
    scheduleNext(child, now);
  }

  private List<Map.Entry<String, String>> headers(Session s, String requestId) {
    List<Map.Entry<String, String>> h = new ArrayList<>(4);
    h.add(Map.entry("X-Request-ID", requestId));
    h.add(Map.entry("X-Correlation-ID", s.correlationId));
    switch (options.affinity()) {
      case SESSION -> h.add(Map.entry("X-Session-ID", s.correlationId));
      case DYNAMO -> {
        h.add(Map.entry("X-Dynamo-Session-ID", s.correlationId));
        if (s.parent != null) {
          h.add(Map.entry("X-Dynamo-Parent-Session-ID", s.parent.correlationId));
        }
      }
      case SMG -> h.add(Map.entry("X-SMG-Routing-Key", s.correlationId));
      default -> { }
    }
    return h;
  }

  // ---------------------------------------------------------------- completion

  private void complete(Pending p, Session s, RequestRecord rec, Throwable ex, boolean warmup,
      String requestId, int contentTokens, long intended, long sendWall) {
    long now = now();
    s.inFlight = false;
    s.play.inFlight--;
    inFlight--;
    touched.add(s.play);
    ReplayRecord r = ReplayRecords.complete(identity(p, s, requestId), warmup, rec, ex,
        contentTokens, intended, sendWall, wall(now), this::wall);
    sink.accept(r);
    stats.add(r);
    if (warmup && r.error() && !r.cancelled()) {
      warmupErrors++;
    }
    if (!warmup && !r.cancelled()) {
      stats.lateness.recordValue(Math.max(0, Math.round(r.latenessMs() * 1000)));
      liveCompleted++;
      if (r.error()) {
        liveErrors++;
      }
      if (phase == Phase.PROFILING && liveCompleted >= LIVE_THRESHOLD_MIN_REQUESTS
          && (double) liveErrors / liveCompleted > options.failedRequestThreshold()) {
        cancelled = true;
        cancelReason = String.format(Locale.ROOT,
            "live request error rate %d/%d exceeded the failed-request threshold %.3f",
            liveErrors, liveCompleted, options.failedRequestThreshold());
        LOG.error("cancelling the run: {}", cancelReason);
        if (scraper != null) {
          scraper.stop();
        }
        phase = Phase.DRAIN;
        drainDeadline = now;
      }
    }
    if (warmup && r.error() && !r.cancelled() && s.parent == null) {
      ReplayRecord.Failure f = r.failure().orElseThrow();
      abort = new InfxException(ErrorKind.AGENTX, "warmup request of root session " + s.conv.id() + " turn "
          + p.turn + " failed (" + f.type() + " " + f.code() + ": " + f.message()
          + "); the run is aborted before profiling");
      return;
    }
    if (r.contextOverflow()) {
      s.ended = true;
    }
    // end-to-start pacing counts from when the response actually ended
    s.prevEnd = rec == null ? now : Math.min(now, rec.e2elEndNanos().orElse(rec.endNanos()));
    scheduleNext(s, now);
  }

  /** The part of a turn's record the engine knows: who sent it and what the trace says. */
  private ImmutableReplayRecord.Builder identity(Pending p, Session s, String requestId) {
    return ReplayRecord.builder().sessionNum(s.play.number).requestId(requestId)
        .correlationId(s.correlationId).rootCorrelationId(s.play.rootCorrelation)
        .conversationId(s.conv.id()).turnIndex(p.turn)
        .hitBlocks(s.conv.hitBlocks(p.turn)).totalBlocks(s.conv.totalBlocks(p.turn));
  }

  // ---------------------------------------------------------------- idle caps

  private void applyIdleCaps(long now) {
    for (Play play : touched) {
      if (play.inFlight > 0 || play.waiting.isEmpty()) {
        continue;
      }
      long earliest = Long.MAX_VALUE;
      for (Pending p : play.waiting) {
        earliest = Math.min(earliest, p.due);
      }
      long shift = earliest - now - treeCapNanos;
      if (shift > 0) {
        shift(play.waiting, shift);
        stats.treeIdleJumps++;
        stats.treeIdleSkippedSeconds += shift / 1e9;
      }
    }
    if (inFlight == 0 && !pending.isEmpty()) {
      long shift = pending.first().due - now - systemCapNanos;
      if (shift > 0) {
        shift(new ArrayList<>(pending), shift);
        stats.systemIdleJumps++;
        stats.systemIdleSkippedSeconds += shift / 1e9;
      }
    }
  }

  private void shift(List<Pending> items, long by) {
    for (Pending p : new ArrayList<>(items)) {
      pending.remove(p);
      p.due -= by;
      pending.add(p);
    }
  }

  // ---------------------------------------------------------------- helpers

  private int[] shuffled(int n) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }

  /**
   * The play's cache-bust marker: {@code [rid:<12 hex>]} and a blank line, derived from the run id,
   * the lane, its recycle pass and the trace — constant within a play, new for every play and run.
   */
  static String marker(String runId, int lane, int pass, String traceId) {
    long h = BlockText.mix(BlockText.mix(BlockText.hash(runId), ((long) lane << 32) | pass), BlockText.hash(traceId));
    String hex = String.format("%016x", h).substring(0, 12);
    return "[rid:" + hex + "]\n\n";
  }

  private void wake() {
    Thread t = scheduler;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  private static long seconds(double s) {
    return (long) (s * 1e9);
  }

  private long now() {
    return ticker.nanoTime();
  }

  private long wall(long nanoTime) {
    return epochBase + (nanoTime - nanoBase);
  }

  private Instant instant(long nanoTime) {
    if (nanoTime == 0) {
      return Instant.EPOCH;
    }
    long w = wall(nanoTime);
    return Instant.ofEpochSecond(w / 1_000_000_000L, w % 1_000_000_000L);
  }

  /** Stops the worker threads of {@link #create} (the transport is closed by the caller). */
  void close() {
    if (!(prep instanceof ExecutorService pool)) {
      return;
    }
    pool.shutdownNow();
    try {
      pool.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
