package io.infx.client.sse;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * Incremental Server-Sent Events parser following the WHATWG HTML "event stream interpretation"
 * rules: lines end in CRLF, LF or CR (a CRLF split across two reads is one line end); a leading
 * UTF-8 BOM is dropped once; lines starting with {@code :} are comments; {@code data} lines
 * accumulate (joined with LF); {@code event}, {@code id} (ignored when it contains NUL) and
 * {@code retry} (ASCII digits only) are honoured; one optional space after the colon is removed;
 * a blank line dispatches the event unless its data buffer is empty; an unterminated event at the
 * end of the stream is discarded.
 *
 * <p>The parser works on bytes: every delimiter is ASCII, so splitting the input inside a UTF-8
 * sequence cannot change the result, and event data is handed to the listener as the raw UTF-8
 * bytes (no {@code String} per event). Any split of the same byte stream therefore yields the same
 * events; each event carries the arrival timestamp of the read that completed it.
 *
 * <p>Memory is bounded: a line or an event's accumulated data longer than
 * {@link #maxEventBytes()} (default {@link #DEFAULT_MAX_EVENT_BYTES}) is not buffered; the listener
 * hears {@link Listener#onOversize(int)} once and the rest of the stream is discarded, so a server
 * or proxy streaming one never-ending {@code data:} line costs at most about twice the limit.
 *
 * <p>Not thread-safe: one parser per stream, fed from one thread at a time. The hot path allocates
 * nothing once its buffers have grown to the largest line and event seen.
 */
public final class SseParser {

  /** Receives dispatched events; the view is reused and valid only during the call. */
  @FunctionalInterface
  public interface Listener {
    void onEvent(SseEvent event);

    /** A valid {@code retry} field was seen (milliseconds). */
    default void onRetry(long millis) {}

    /**
     * A line or an event's data grew past {@code limitBytes}; called once, after which the parser
     * discards everything it is fed.
     */
    default void onOversize(int limitBytes) {}
  }

  /**
   * Default limit of one SSE line or event (8 MiB): OpenAI-style chunks of real engines are a few
   * hundred bytes to a few KiB (even with logprobs), so a bigger one is a broken server or proxy.
   */
  public static final int DEFAULT_MAX_EVENT_BYTES = 8 << 20;

  private static final byte CR = '\r';
  private static final byte LF = '\n';
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
  private static final byte[] DATA = {'d', 'a', 't', 'a'};
  private static final byte[] EVENT = {'e', 'v', 'e', 'n', 't'};
  private static final byte[] ID = {'i', 'd'};
  private static final byte[] RETRY = {'r', 'e', 't', 'r', 'y'};

  private final Listener listener;
  private final SseEvent event = new SseEvent();
  private final int maxEventBytes;
  private boolean oversize;

  private byte[] line = new byte[256];
  private int lineLen;
  private boolean lastWasCr;
  private int bomMatched; // bytes of the BOM matched so far; -1 once decided
  private long bytes;
  private byte[] scratch; // for direct ByteBuffers

  /** A parser with the {@link #DEFAULT_MAX_EVENT_BYTES default} line/event limit. */
  public SseParser(Listener listener) {
    this(listener, DEFAULT_MAX_EVENT_BYTES);
  }

  /**
   * A parser that refuses lines and events longer than {@code maxEventBytes}.
   *
   * @throws IllegalArgumentException when {@code maxEventBytes < 64}
   */
  public SseParser(Listener listener, int maxEventBytes) {
    this.listener = Objects.requireNonNull(listener, "listener");
    if (maxEventBytes < 64) {
      throw new IllegalArgumentException("maxEventBytes must be ≥ 64, got " + maxEventBytes);
    }
    this.maxEventBytes = maxEventBytes;
  }

  /** The longest line or event data accepted, in bytes. */
  public int maxEventBytes() {
    return maxEventBytes;
  }

  /** Whether the limit was exceeded (the rest of the stream is being discarded). */
  public boolean oversize() {
    return oversize;
  }

  /** Total bytes fed so far. */
  public long bytesFed() {
    return bytes;
  }

  /** Feeds the remaining bytes of {@code src} (consumed), read at {@code arrivalNanos}. */
  public void feed(ByteBuffer src, long arrivalNanos) {
    int n = src.remaining();
    if (n == 0) {
      return;
    }
    if (oversize) {
      src.position(src.limit());
      bytes += n;
      return;
    }
    if (src.hasArray()) {
      feed(src.array(), src.arrayOffset() + src.position(), n, arrivalNanos);
      src.position(src.limit());
    } else {
      if (scratch == null || scratch.length < Math.min(n, 1 << 16)) {
        scratch = new byte[Math.max(4096, Math.min(n, 1 << 16))];
      }
      while (src.hasRemaining() && !oversize) {
        int k = Math.min(src.remaining(), scratch.length);
        src.get(scratch, 0, k);
        feed(scratch, 0, k, arrivalNanos);
      }
      bytes += src.remaining();
      src.position(src.limit());
    }
  }

  /** Feeds {@code len} bytes of {@code b} from {@code off}, read at {@code arrivalNanos}. */
  public void feed(byte[] b, int off, int len, long arrivalNanos) {
    bytes += len;
    if (oversize) {
      return;
    }
    int end = off + len;
    int i = off;
    if (bomMatched >= 0) {
      while (i < end && bomMatched >= 0 && bomMatched < 3) {
        if (b[i] == BOM[bomMatched]) {
          bomMatched++;
          i++;
        } else {
          // Not a BOM: the bytes matched so far are content.
          int matched = bomMatched;
          bomMatched = -1;
          if (matched > 0) {
            feedBody(BOM, 0, matched, arrivalNanos);
          }
        }
      }
      if (bomMatched == 3) {
        bomMatched = -1;
      }
      if (bomMatched >= 0) {
        return; // still undecided (stream so far is a BOM prefix)
      }
    }
    feedBody(b, i, end - i, arrivalNanos);
  }

  private void feedBody(byte[] b, int off, int len, long arrivalNanos) {
    int end = off + len;
    int i = off;
    if (lastWasCr && i < end) {
      lastWasCr = false;
      if (b[i] == LF) {
        i++;
      }
    }
    int start = i;
    while (i < end && !oversize) {
      byte c = b[i];
      if (c == LF || c == CR) {
        if (lineLen == 0) {
          processLine(b, start, i - start, arrivalNanos);
        } else {
          append(b, start, i - start);
          processLine(line, 0, lineLen, arrivalNanos);
          lineLen = 0;
        }
        i++;
        if (c == CR) {
          if (i < end) {
            if (b[i] == LF) {
              i++;
            }
          } else {
            lastWasCr = true;
          }
        }
        start = i;
      } else {
        i++;
      }
    }
    if (start < end && !oversize) {
      append(b, start, end - start);
    }
  }

  /**
   * Ends the stream: a partial line or an event without its terminating blank line is discarded,
   * as the WHATWG rules require.
   */
  public void end() {
    lineLen = 0;
    oversize = false;
    lastWasCr = false;
    event.resetPending();
  }

  private void append(byte[] b, int off, int len) {
    if (len == 0) {
      return;
    }
    if ((long) lineLen + len > maxEventBytes) {
      tooBig();
      return;
    }
    if (lineLen + len > line.length) {
      line = Arrays.copyOf(line, Math.min(maxEventBytes, Math.max(line.length * 2, lineLen + len)));
    }
    System.arraycopy(b, off, line, lineLen, len);
    lineLen += len;
  }

  private void processLine(byte[] b, int off, int len, long arrivalNanos) {
    if (len == 0) {
      dispatch(arrivalNanos);
      return;
    }
    if (b[off] == ':') {
      return; // comment
    }
    int colon = -1;
    for (int k = off; k < off + len; k++) {
      if (b[k] == ':') {
        colon = k;
        break;
      }
    }
    int nameEnd;
    int valueStart;
    if (colon < 0) {
      nameEnd = off + len;
      valueStart = off + len;
    } else {
      nameEnd = colon;
      valueStart = colon + 1;
      if (valueStart < off + len && b[valueStart] == ' ') {
        valueStart++;
      }
    }
    int nameLen = nameEnd - off;
    int valueLen = off + len - valueStart;
    if (is(b, off, nameLen, DATA)) {
      if ((long) event.dataLength() + valueLen + 1 > maxEventBytes) {
        tooBig();
        return;
      }
      event.appendData(b, valueStart, valueLen);
    } else if (is(b, off, nameLen, EVENT)) {
      event.setType(b, valueStart, valueLen);
    } else if (is(b, off, nameLen, ID)) {
      for (int k = valueStart; k < valueStart + valueLen; k++) {
        if (b[k] == 0) {
          return;
        }
      }
      event.setPendingId(b, valueStart, valueLen);
    } else if (is(b, off, nameLen, RETRY)) {
      if (valueLen == 0 || valueLen > 18) {
        return;
      }
      long v = 0;
      for (int k = valueStart; k < valueStart + valueLen; k++) {
        int d = b[k] - '0';
        if (d < 0 || d > 9) {
          return;
        }
        v = v * 10 + d;
      }
      listener.onRetry(v);
    }
    // any other field name is ignored
  }

  private void tooBig() {
    oversize = true;
    lineLen = 0;
    line = new byte[256]; // give the grown buffer back now, not when the stream ends
    event.resetPending();
    listener.onOversize(maxEventBytes);
  }

  private void dispatch(long arrivalNanos) {
    event.commitId();
    if (!event.hasData()) {
      event.resetPending();
      return;
    }
    event.prepareDispatch(arrivalNanos);
    listener.onEvent(event);
    event.resetPending();
  }

  private static boolean is(byte[] b, int off, int len, byte[] name) {
    return len == name.length && Arrays.equals(b, off, off + len, name, 0, len);
  }
}
