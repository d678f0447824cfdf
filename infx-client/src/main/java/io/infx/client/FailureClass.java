package io.infx.client;

/**
 * Why a request failed; every failed request carries exactly one class.
 *
 * <p>Not an {@link io.infx.core.ErrorKind}: a failed request is a measurement of the server, not an
 * error of the benchmark. It is recorded (the raw result's {@code class}), counted per class and
 * the run goes on; an {@code ErrorKind} says why an operation stopped and is thrown to its caller.
 * The two overlap in words only ({@code connect} here is one request's connection; the error kind
 * {@code connect} is a server that cannot be reached before the run starts).
 */
public enum FailureClass {
  /** The connection could not be opened (refused, unreachable, connect timeout). */
  CONNECT("connect"),
  /** A deadline ran out: first byte, idle gap between chunks, or total request time. */
  TIMEOUT("timeout"),
  /** The server answered 4xx. */
  HTTP_4XX("4xx"),
  /** The server answered 5xx. */
  HTTP_5XX("5xx"),
  /** Any other status than 200 that is neither 4xx nor 5xx. */
  HTTP_OTHER("http"),
  /**
   * The stream broke: reset or closed mid-body, an in-stream error object, or a 200 stream that
   * never carried a token.
   */
  STREAM("stream"),
  /** A chunk could not be decoded (malformed JSON, wrong shape). */
  DECODE("decode"),
  /**
   * One SSE line or event exceeded the client's limit ({@link ClientOptions#maxSseEventBytes()}):
   * the request is failed and its connection closed so one runaway stream cannot exhaust memory.
   */
  OVERSIZE("oversize"),
  /**
   * The client itself failed while handling the response (an {@link Error} such as
   * {@link OutOfMemoryError}, or an unexpected exception on the I/O thread); only this request is
   * failed and the I/O threads keep running.
   */
  CLIENT("client");

  private final String label;

  FailureClass(String label) {
    this.label = label;
  }

  /** Short stable label used in result files and summaries. */
  public String label() {
    return label;
  }
}
