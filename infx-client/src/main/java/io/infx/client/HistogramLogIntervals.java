package io.infx.client;

import io.infx.client.metrics.IntervalListener;
import io.infx.client.metrics.IntervalMetrics;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Keeps the interval histograms of a run for its {@code .hlog} ({@code --hlog-interval}),
 * compressed as they arrive: a histogram object of a long run's value range takes ~100 KB, its
 * compressed form a few hundred bytes, so a 6-hour run at 1 s intervals stays in the tens of MB.
 */
final class HistogramLogIntervals implements IntervalListener {

  /** One interval: offsets from the start of the measured phase (ns) and 4 compressed histograms. */
  record Entry(long startNanos, long endNanos, byte[] ttft, byte[] tpot, byte[] itl, byte[] e2el) {}

  private final List<Entry> entries = new ArrayList<>();
  private final IntervalListener next;

  /** @param next the user's own listener, called after the interval is kept, or {@code null} */
  HistogramLogIntervals(IntervalListener next) {
    this.next = next;
  }

  @Override
  public void onInterval(IntervalMetrics m) {
    synchronized (entries) {
      entries.add(new Entry(m.start().toNanos(), m.end().toNanos(), compress(m.ttftHistogram()),
          compress(m.tpotHistogram()), compress(m.itlHistogram()), compress(m.e2elHistogram())));
    }
    if (next != null) {
      next.onInterval(m);
    }
  }

  /** The intervals kept so far, in order. */
  List<Entry> entries() {
    synchronized (entries) {
      return List.copyOf(entries);
    }
  }

  private static byte[] compress(Histogram h) {
    ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int n = h.encodeIntoCompressedByteBuffer(b);
    byte[] out = new byte[n];
    b.flip();
    b.get(out);
    return out;
  }

  static Histogram decompress(byte[] bytes) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
    } catch (DataFormatException e) {
      throw new IllegalStateException("a histogram this process compressed does not decode", e);
    }
  }
}
