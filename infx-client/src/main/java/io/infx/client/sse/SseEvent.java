package io.infx.client.sse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One dispatched Server-Sent Event, as a reusable view handed to {@link SseParser.Listener}: valid
 * only during the callback (copy what you keep). Data is the raw UTF-8 bytes with the trailing LF
 * removed, so JSON parsers can read it without a {@code String}.
 */
public final class SseEvent {

  private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

  private byte[] data = new byte[512];
  private int dataLen;
  private boolean anyData;
  private byte[] type = new byte[16];
  private int typeLen;
  private boolean typeSet;
  private byte[] pendingId;
  private boolean pendingIdSet;
  private String lastEventId = "";
  private long arrivalNanos;

  SseEvent() {}

  /** The data buffer; bytes {@code [0, dataLength())} are the event's data (UTF-8). */
  public byte[] dataBytes() {
    return data;
  }

  public int dataLength() {
    return dataLen;
  }

  /** The data decoded as UTF-8 (malformed sequences replaced), allocating a new string. */
  public String data() {
    return new String(data, 0, dataLen, StandardCharsets.UTF_8);
  }

  /** Whether the data is exactly {@code [DONE]}, OpenAI's end-of-stream marker. */
  public boolean isDone() {
    return Arrays.equals(data, 0, dataLen, DONE, 0, DONE.length);
  }

  /** The event type; {@code message} when no {@code event} field was given. */
  public String type() {
    return typeSet && typeLen > 0
        ? new String(type, 0, typeLen, StandardCharsets.UTF_8) : "message";
  }

  /** Whether the event has the default type {@code message}. */
  public boolean isMessage() {
    return !typeSet || typeLen == 0
        || (typeLen == 7 && new String(type, 0, 7, StandardCharsets.US_ASCII).equals("message"));
  }

  /** The last event ID as of this event ({@code ""} when none was ever set). */
  public String lastEventId() {
    return lastEventId;
  }

  /** {@code System.nanoTime()} of the read that completed this event. */
  public long arrivalNanos() {
    return arrivalNanos;
  }

  void appendData(byte[] b, int off, int len) {
    int need = dataLen + len + 1;
    if (need > data.length) {
      data = Arrays.copyOf(data, Math.max(data.length * 2, need));
    }
    System.arraycopy(b, off, data, dataLen, len);
    dataLen += len;
    data[dataLen++] = '\n';
    anyData = true;
  }

  void setType(byte[] b, int off, int len) {
    if (len > type.length) {
      type = Arrays.copyOf(type, len);
    }
    System.arraycopy(b, off, type, 0, len);
    typeLen = len;
    typeSet = true;
  }

  void setPendingId(byte[] b, int off, int len) {
    pendingId = Arrays.copyOfRange(b, off, off + len);
    pendingIdSet = true;
  }

  void commitId() {
    if (pendingIdSet) {
      lastEventId = new String(pendingId, StandardCharsets.UTF_8);
      pendingIdSet = false;
      pendingId = null;
    }
  }

  boolean hasData() {
    return anyData;
  }

  void prepareDispatch(long nanos) {
    if (dataLen > 0 && data[dataLen - 1] == '\n') {
      dataLen--;
    }
    arrivalNanos = nanos;
  }

  void resetPending() {
    dataLen = 0;
    anyData = false;
    typeLen = 0;
    typeSet = false;
  }
}
