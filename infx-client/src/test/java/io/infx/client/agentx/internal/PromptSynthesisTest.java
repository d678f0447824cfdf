package io.infx.client.agentx.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.client.agentx.HashIds;
import io.infx.client.agentx.SyntheticCorpus;
import io.infx.client.agentx.TraceRequest;
import io.infx.client.agentx.WekaTrace;
import io.infx.client.tokenizer.BuiltinTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PromptSynthesisTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MARKER = ReplayEngine.marker("run", 0, 0, "tr");

  private final PromptWriter writer = new PromptWriter(new BlockText(42, null), 64, "m", Map.of());

  /** The messages of every turn of a conversation, as written. */
  private List<JsonNode> bodies(List<TraceRequest> turns, int maxTokens) throws Exception {
    Transcript tr = new Transcript();
    List<JsonNode> out = new ArrayList<>();
    for (int i = 0; i < turns.size(); i++) {
      tr.advance(turns.get(i), 0, 64);
      PromptWriter.Body b = writer.write(7, tr.messages(), turns.get(i).inputTokens(), MARKER, i, maxTokens);
      assertThat(b.contentTokens()).isEqualTo(turns.get(i).inputTokens());
      out.add(JSON.readTree(b.bytes()));
    }
    return out;
  }

  private static String content(JsonNode body) {
    StringBuilder sb = new StringBuilder();
    for (JsonNode m : body.get("messages")) {
      sb.append('|').append(m.get("role").asText()).append('|').append(m.get("content").asText());
    }
    return sb.toString();
  }

  @Test
  void eachTurnExtendsThePreviousPromptByteForByte() throws Exception {
    WekaTrace t = new SyntheticCorpus(1, 8, 3, 4, 2, 100, 0.1, 0.1, 0, 1).generate().get(0);
    List<JsonNode> bodies = bodies(t.topLevelRequests(), 100);
    for (int i = 1; i < bodies.size(); i++) {
      String prev = content(bodies.get(i - 1));
      String cur = content(bodies.get(i));
      assertThat(cur).startsWith(prev);
      assertThat(cur.length()).isGreaterThan(prev.length());
    }
    JsonNode last = bodies.get(bodies.size() - 1);
    List<String> roles = new ArrayList<>();
    last.get("messages").forEach(m -> roles.add(m.get("role").asText()));
    assertThat(roles.get(0)).isEqualTo("user");
    assertThat(roles).containsSubsequence("user", "assistant", "user", "assistant", "user");
    assertThat(roles.get(roles.size() - 1)).isEqualTo("user");
    assertThat(last.get("max_tokens").asInt()).isEqualTo(100);
    assertThat(last.get("ignore_eos").asBoolean()).isTrue();
    assertThat(last.get("stream").asBoolean()).isTrue();
  }

  @Test
  void contentIsExactlyTheRecordedInputTokens() throws Exception {
    qt().forAll(integers().between(1, 40), integers().between(0, 200)).checkAssert((blocks, extra) -> {
      int[] ids = new int[blocks];
      for (int i = 0; i < blocks; i++) {
        ids[i] = i;
      }
      // in = full blocks, a shorter last block, or an unhashed tail
      int in = Math.max(1, blocks * 64 - 63 + extra);
      Transcript tr = new Transcript();
      tr.advance(TraceRequest.of(0, "m", in, 5, HashIds.of(ids), 1), 0, 64);
      PromptWriter.Body b = writer.write(1, tr.messages(), in, "", 99, 5);
      assertThat(b.contentTokens()).isEqualTo(in);
      JsonNode body;
      try {
        body = JSON.readTree(b.bytes());
      } catch (Exception e) {
        throw new AssertionError(e);
      }
      String text = body.get("messages").get(0).get("content").asText();
      assertThat(BuiltinTokenizer.instance().encode(text)).hasSize(in);
    });
  }

  @Test
  void identicalIdsMeanIdenticalBytesAndNamespacesSeparate() {
    BlockText bt = new BlockText(42, null);
    qt().forAll(longs().between(0, 1000), integers().between(0, 10_000)).checkAssert((ns, id) -> {
      StringBuilder a = new StringBuilder();
      StringBuilder b = new StringBuilder();
      StringBuilder c = new StringBuilder();
      bt.append(a, bt.key(ns, id), 64, 64);
      bt.append(b, bt.key(ns, id), 64, 64);
      bt.append(c, bt.key(ns + 1, id), 64, 64);
      assertThat(a.toString()).isEqualTo(b.toString()).isNotEqualTo(c.toString());
      assertThat(BuiltinTokenizer.instance().encode(a.toString())).hasSize(64);
    });
    StringBuilder other = new StringBuilder();
    new BlockText(43, null).append(other, new BlockText(43, null).key(1, 1), 64, 64);
    StringBuilder mine = new StringBuilder();
    bt.append(mine, bt.key(1, 1), 64, 64);
    assertThat(other.toString()).as("the seed is part of the content").isNotEqualTo(mine.toString());
  }

  @Test
  void markerOpensTheFirstUserMessageOnly() throws Exception {
    assertThat(MARKER).matches("\\[rid:[0-9a-f]{12}\\]\n\n");
    assertThat(ReplayEngine.marker("run", 0, 1, "tr")).as("new per recycle").isNotEqualTo(MARKER);
    assertThat(ReplayEngine.marker("run2", 0, 0, "tr")).as("new per run").isNotEqualTo(MARKER);
    assertThat(ReplayEngine.marker("run", 0, 0, "tr")).as("constant within a play").isEqualTo(MARKER);
    WekaTrace t = new SyntheticCorpus(1, 3, 3, 2, 1, 64, 0.1, 0.1, 0, 1).generate().get(0);
    List<JsonNode> bodies = bodies(t.topLevelRequests(), 10);
    for (JsonNode b : bodies) {
      JsonNode msgs = b.get("messages");
      assertThat(msgs.get(0).get("content").asText()).startsWith(MARKER);
      for (int i = 1; i < msgs.size(); i++) {
        assertThat(msgs.get(i).get("content").asText()).doesNotContain("[rid:");
      }
    }
  }

  @Test
  void bodyTextIsEscapedJsonForAnyString() {
    qt().forAll(org.quicktheories.generators.SourceDSL.strings().allPossible().ofLengthBetween(0, 40))
        .checkAssert(s -> {
          JsonBytes b = new JsonBytes(4);
          b.raw("{\"k\":").string(s).raw("}");
          try {
            String back = JSON.readTree(b.toByteArray()).get("k").asText();
            StringBuilder expected = new StringBuilder(); // lone surrogates become U+FFFD
            for (int i = 0; i < s.length(); i++) {
              char c = s.charAt(i);
              if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                expected.append(c).append(s.charAt(++i));
              } else {
                expected.append(Character.isSurrogate(c) ? '\uFFFD' : c);
              }
            }
            assertThat(back).isEqualTo(expected.toString());
          } catch (java.io.IOException e) {
            throw new AssertionError(e);
          }
        });
  }

  @Test
  void compactionCutsTheHistoryAndSystemPrefixBecomesASystemMessage() {
    Transcript tr = new Transcript();
    tr.advance(TraceRequest.of(0, "m", 5 * 64, 64, HashIds.of(0, 1, 2, 3, 4), 1), 128, 64);
    assertThat(tr.messages()).extracting(Transcript.Message::role).containsExactly("system", "user");
    assertThat(tr.messages().get(0).blocks()).containsExactly(0, 1);
    tr.advance(TraceRequest.of(2, "m", 8 * 64, 64, HashIds.of(0, 1, 2, 3, 4, 5, 6, 7), 1), 128, 64);
    assertThat(tr.messages()).extracting(Transcript.Message::role)
        .containsExactly("system", "user", "assistant", "user");
    // compaction: keeps blocks 0..2, then new content
    tr.advance(TraceRequest.of(4, "m", 5 * 64, 64, HashIds.of(0, 1, 2, 8, 9), 1), 128, 64);
    assertThat(tr.messages()).extracting(Transcript.Message::role).containsExactly("system", "user", "user");
    assertThat(tr.messages().get(1).blocks()).containsExactly(2);
    assertThat(tr.messages().get(2).blocks()).containsExactly(8, 9);
    assertThat(tr.blocks()).isEqualTo(5);
  }
}
