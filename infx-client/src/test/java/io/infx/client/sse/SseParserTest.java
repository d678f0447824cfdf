package io.infx.client.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.SourceDSL;

class SseParserTest {

  record Ev(String type, String data, String id) {}

  static List<Ev> parse(byte[] bytes, int[] splits) {
    List<Ev> out = new ArrayList<>();
    SseParser p = new SseParser(e -> out.add(new Ev(e.type(), e.data(), e.lastEventId())));
    int prev = 0;
    for (int s : splits) {
      p.feed(bytes, prev, s - prev, s);
      prev = s;
    }
    p.feed(bytes, prev, bytes.length - prev, bytes.length);
    p.end();
    return out;
  }

  static List<Ev> parse(String s) {
    return parse(s.getBytes(StandardCharsets.UTF_8), new int[0]);
  }

  /**
   * Oracle written straight from the WHATWG algorithm over a decoded string (not byte-driven), to
   * compare the byte parser against an independent reading of the rules.
   */
  static List<Ev> oracle(String text) {
    List<Ev> out = new ArrayList<>();
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    StringBuilder data = new StringBuilder();
    String type = "";
    String lastId = "";
    int i = 0;
    while (true) {
      int j = i;
      while (j < text.length() && text.charAt(j) != '\r' && text.charAt(j) != '\n') {
        j++;
      }
      if (j >= text.length()) {
        break; // unterminated line: discarded with the pending event
      }
      String line = text.substring(i, j);
      i = j + 1;
      if (text.charAt(j) == '\r' && i < text.length() && text.charAt(i) == '\n') {
        i++;
      }
      if (line.isEmpty()) {
        if (data.length() == 0) {
          type = "";
          continue;
        }
        String d = data.charAt(data.length() - 1) == '\n'
            ? data.substring(0, data.length() - 1) : data.toString();
        out.add(new Ev(type.isEmpty() ? "message" : type, d, lastId));
        data.setLength(0);
        type = "";
        continue;
      }
      if (line.startsWith(":")) {
        continue;
      }
      int c = line.indexOf(':');
      String name = c < 0 ? line : line.substring(0, c);
      String value = c < 0 ? "" : line.substring(c + 1);
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      switch (name) {
        case "data" -> data.append(value).append('\n');
        case "event" -> type = value;
        case "id" -> {
          if (value.indexOf('\0') < 0) {
            lastId = value;
          }
        }
        default -> { }
      }
    }
    return out;
  }

  @Test
  void openAiStreamWithCrlfCommentsAndDone() {
    String s = ": ping\r\ndata: {\"a\":1}\r\n\r\ndata:{\"b\":2}\n\ndata: [DONE]\r\r";
    List<Ev> evs = parse(s);
    assertThat(evs).extracting(Ev::data).containsExactly("{\"a\":1}", "{\"b\":2}", "[DONE]");
  }

  @Test
  void multiLineDataEmptyDataAndDefaultType() {
    List<Ev> evs = parse("data: a\ndata\ndata: b\n\ndata:\n\nevent: x\nid: 7\ndata: y\n\n");
    assertThat(evs).containsExactly(
        new Ev("message", "a\n\nb", ""), new Ev("message", "", ""), new Ev("x", "y", "7"));
  }

  @Test
  void blankLineWithoutDataDispatchesNothingAndResetsType() {
    List<Ev> evs = parse("event: x\n\ndata: z\n\n");
    assertThat(evs).containsExactly(new Ev("message", "z", ""));
  }

  @Test
  void bomIsStrippedOnceOnly() {
    assertThat(parse("\uFEFFdata: a\n\n")).containsExactly(new Ev("message", "a", ""));
    // a second BOM is part of the field name, which makes the line unknown
    assertThat(parse("\uFEFF\uFEFFdata: a\n\n")).isEmpty();
  }

  @Test
  void unterminatedEventAtEndIsDiscarded() {
    assertThat(parse("data: a\n\ndata: b\n")).containsExactly(new Ev("message", "a", ""));
    assertThat(parse("data: a\n\ndata: b")).containsExactly(new Ev("message", "a", ""));
  }

  @Test
  void idWithNulIgnoredAndRetryParsed() {
    List<Long> retries = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    SseParser p = new SseParser(new SseParser.Listener() {
      @Override
      public void onEvent(SseEvent event) {
        ids.add(event.lastEventId());
      }

      @Override
      public void onRetry(long millis) {
        retries.add(millis);
      }
    });
    byte[] b = "id: 1\nretry: 250\nretry: x1\ndata: a\n\nid: 2\u0000\ndata: b\n\n"
        .getBytes(StandardCharsets.UTF_8);
    p.feed(ByteBuffer.wrap(b), 0);
    assertThat(ids).containsExactly("1", "1");
    assertThat(retries).containsExactly(250L);
  }

  @Test
  void directBuffersAreRead() {
    List<String> out = new ArrayList<>();
    SseParser p = new SseParser(e -> out.add(e.data()));
    byte[] b = "data: héllo\n\n".getBytes(StandardCharsets.UTF_8);
    ByteBuffer d = ByteBuffer.allocateDirect(b.length);
    d.put(b).flip();
    p.feed(d, 1);
    assertThat(out).containsExactly("héllo");
    assertThat(d.remaining()).isZero();
  }

  @Test
  void aLineOrEventPastTheLimitIsReportedOnceAndTheRestDiscarded() {
    List<String> out = new ArrayList<>();
    List<Integer> oversize = new ArrayList<>();
    SseParser.Listener l = new SseParser.Listener() {
      @Override
      public void onEvent(SseEvent event) {
        out.add(event.data());
      }

      @Override
      public void onOversize(int limitBytes) {
        oversize.add(limitBytes);
      }
    };
    // one long line, fed in small reads as a socket would deliver it
    SseParser p = new SseParser(l, 100);
    p.feed(ByteBuffer.wrap("data: ok\n\ndata: ".getBytes(StandardCharsets.UTF_8)), 0);
    for (int i = 0; i < 50; i++) {
      p.feed(ByteBuffer.wrap("xxxxxxxxxx".getBytes(StandardCharsets.UTF_8)), 0);
    }
    p.feed(ByteBuffer.wrap("\n\ndata: later\n\n".getBytes(StandardCharsets.UTF_8)), 0);
    assertThat(out).containsExactly("ok");
    assertThat(oversize).containsExactly(100);
    assertThat(p.oversize()).isTrue();
    // many short data lines that together exceed the limit (one event)
    out.clear();
    oversize.clear();
    SseParser q = new SseParser(l, 100);
    q.feed(ByteBuffer.wrap("data: 0123456789\n".repeat(10).getBytes(StandardCharsets.UTF_8)), 0);
    q.feed(ByteBuffer.wrap("\n".getBytes(StandardCharsets.UTF_8)), 0);
    assertThat(out).isEmpty();
    assertThat(oversize).containsExactly(100);
    // an endless comment line and an endless line without a field name are capped the same way
    for (String start : List.of(": ", "{\"choices\":[{\"text\":\"")) {
      out.clear();
      oversize.clear();
      SseParser c = new SseParser(l, 100);
      c.feed(ByteBuffer.wrap(("data: ok\n\n" + start).getBytes(StandardCharsets.UTF_8)), 0);
      for (int i = 0; i < 50; i++) {
        c.feed(ByteBuffer.wrap("xxxxxxxxxx".getBytes(StandardCharsets.UTF_8)), 0);
      }
      assertThat(out).as(start).containsExactly("ok");
      assertThat(oversize).as(start).containsExactly(100);
    }
    // exactly at the limit still passes
    out.clear();
    SseParser r = new SseParser(l, 100);
    String v = "y".repeat(99);
    r.feed(ByteBuffer.wrap(("data:" + v.substring(5) + "\n\n").getBytes(StandardCharsets.UTF_8)), 0);
    assertThat(out).containsExactly(v.substring(5));
  }

  // --- property: any re-chunking gives the same events, equal to the oracle ---

  private static final String[] ENDINGS = {"\n", "\r", "\r\n"};
  private static final String[] PIECES = {
      "data: ", "data:", "data", "event: ", "event:", "id: ", "retry: ", ": comment", ":", "x",
      "{\"choices\":[{\"delta\":{\"content\":\"é\"}}]}", "日本語", "😀", "[DONE]", " ", "\u0000",
      "a:b", "data: data: ", "123"};

  static Gen<String> streams() {
    return SourceDSL.longs().all().map(seed -> {
      Random r = new Random(seed);
      StringBuilder sb = new StringBuilder();
      if (r.nextInt(8) == 0) {
        sb.append('\uFEFF');
      }
      int lines = r.nextInt(30);
      for (int l = 0; l < lines; l++) {
        int parts = r.nextInt(4);
        for (int k = 0; k < parts; k++) {
          sb.append(PIECES[r.nextInt(PIECES.length)]);
        }
        sb.append(ENDINGS[r.nextInt(ENDINGS.length)]);
      }
      return sb.toString();
    });
  }

  @Test
  void anyRechunkingYieldsIdenticalEventsMatchingTheOracle() {
    qt().withExamples(2000).forAll(streams(), SourceDSL.longs().all())
        .checkAssert((text, seed) -> {
          byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
          List<Ev> whole = parse(bytes, new int[0]);
          assertThat(whole).isEqualTo(oracle(text));
          Random r = new Random(seed);
          int n = bytes.length == 0 ? 0 : r.nextInt(Math.min(bytes.length, 40) + 1);
          int[] splits = r.ints(n, 0, bytes.length + 1).sorted().toArray();
          assertThat(parse(bytes, splits)).isEqualTo(whole);
          // byte-at-a-time: splits inside every UTF-8 sequence and every CRLF
          int[] every = new int[bytes.length];
          for (int k = 0; k < bytes.length; k++) {
            every[k] = k;
          }
          assertThat(parse(bytes, every)).isEqualTo(whole);
        });
  }
}
