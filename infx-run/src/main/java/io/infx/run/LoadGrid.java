package io.infx.run;

/**
 * The loads a search may probe: {@code lo, lo + step, lo + 2·step, …} up to {@code hi}, which is
 * always the last load even when {@code hi − lo} is not a multiple of {@code step}. The search's
 * resolution is one step: it stops when its last pass and first fail are neighbours on the grid.
 *
 * @param lo the smallest load (concurrency ≥ 1, or a request rate in req/s &gt; 0)
 * @param hi the largest load, ≥ {@code lo}
 * @param step the resolution, &gt; 0 (concurrency: a whole number)
 */
public record LoadGrid(double lo, double hi, double step) {

  public LoadGrid {
    if (!(lo > 0) || !(hi >= lo) || !(step > 0) || !Double.isFinite(hi) || !Double.isFinite(step)) {
      throw new IllegalArgumentException("a load grid needs 0 < lo <= hi and step > 0, got lo " + lo + ", hi " + hi
          + ", step " + step);
    }
    if ((hi - lo) / step > 1_000_000) {
      throw new IllegalArgumentException("a load grid of more than a million loads (lo " + lo + ", hi " + hi
          + ", step " + step + ")");
    }
  }

  /** The concurrencies {@code lo..hi}, every {@code step}-th. */
  public static LoadGrid concurrency(int lo, int hi, int step) {
    if (lo < 1 || step < 1) {
      throw new IllegalArgumentException("concurrency starts at 1 with a whole step, got lo " + lo + ", step " + step);
    }
    return new LoadGrid(lo, hi, step);
  }

  /** How many loads: indices {@code 0 .. size() − 1}. */
  public int size() {
    return (int) Math.ceil((hi - lo) / step - 1e-9) + 1;
  }

  /** The {@code i}-th load; the last one is {@code hi}. */
  public double load(int i) {
    if (i < 0 || i >= size()) {
      throw new IndexOutOfBoundsException("load index " + i + " of " + size());
    }
    return i == size() - 1 ? hi : lo + i * step;
  }

  /** The largest index whose load is at most {@code x} (0 below the grid). */
  public int floorIndex(double x) {
    if (!(x >= lo)) {
      return 0;
    }
    if (x >= hi) {
      return size() - 1;
    }
    return Math.min(size() - 1, (int) Math.floor((x - lo) / step + 1e-9));
  }

  /** The smallest index whose load is at least {@code x} (the last one above the grid). */
  public int ceilIndex(double x) {
    if (!(x > lo)) {
      return 0;
    }
    if (x >= hi) {
      return size() - 1;
    }
    return Math.min(size() - 1, (int) Math.ceil((x - lo) / step - 1e-9));
  }
}
