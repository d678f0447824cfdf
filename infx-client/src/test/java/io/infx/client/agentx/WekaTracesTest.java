package io.infx.client.agentx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.ValidationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class WekaTracesTest {

  /** The spec's tiny example (agentx.md §2.1). */
  public static final String DEMO = """
      {"id": "demo-1", "models": ["m-large", "m-small"], "block_size": 64,
       "hash_id_scope": "local", "requests": [
        {"t": 0.0, "type": "s", "model": "m-large", "in": 256, "out": 40,
         "hash_ids": [0, 1, 2, 3], "stop": "tool_use", "api_time": 2.0},
        {"t": 5.0, "type": "s", "model": "m-large", "in": 384, "out": 20,
         "hash_ids": [0, 1, 2, 3, 4, 5], "input_types": ["tool_result"],
         "api_time": 1.0, "think_time": 3.0},
        {"t": 6.5, "type": "subagent", "agent_id": "subagent_001",
         "subagent_type": "Subagent", "status": "completed", "models": ["m-small"],
         "duration_ms": 4000, "total_tokens": 230, "requests": [
           {"t": 6.5, "type": "n", "model": "m-small", "in": 192, "out": 38,
            "hash_ids": [9, 10, 11], "api_time": 4.0}]},
        {"t": 11.0, "type": "s", "model": "m-large", "in": 512, "out": 60,
         "hash_ids": [0, 1, 2, 3, 4, 5, 6, 7], "api_time": 3.0}]}
      """;

  @TempDir Path tmp;

  @Test
  void parsesTheSpecExample() {
    WekaTrace t = WekaTraces.parse(DEMO, "demo.json");
    assertThat(t.id()).isEqualTo("demo-1");
    assertThat(t.blockSize()).isEqualTo(64);
    assertThat(t.entries()).hasSize(4);
    assertThat(t.topLevelRequests()).extracting(TraceRequest::inputTokens).containsExactly(256, 384, 512);
    assertThat(t.requestCount()).isEqualTo(4);
    TraceRequest r1 = t.topLevelRequests().get(1);
    assertThat(r1.hashIds().toArray()).containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(r1.thinkTime()).hasValue(3.0);
    assertThat(r1.inputTypes()).containsExactly("tool_result");
    SubagentEntry sa = (SubagentEntry) t.entries().get(2);
    assertThat(sa.agentId()).isEqualTo("subagent_001");
    assertThat(sa.end()).isEqualTo(10.5);
    assertThat(t.span()).isEqualTo(14.0);
  }

  @Test
  void reportsEveryViolationWithLineColumnRuleAndPointer() {
    String bad = """
        {"id": "x", "block_size": 0, "requests": [
          {"t": -1, "type": "s", "model": "m", "in": 10, "out": 1, "hash_ids": [1]},
          {"t": 1, "type": "q"},
          {"t": 2, "type": "n", "model": "m", "in": 1.5, "out": 1, "colour": "red"}],
         "extra": true}
        """;
    assertThatThrownBy(() -> WekaTraces.parse(bad, "bad.json"))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> {
          String m = e.getMessage();
          assertThat(m).contains("bad.json:1:").contains("[trace.block-size] /block_size");
          assertThat(m).contains("bad.json:2:").contains("[request.t] /requests/0/t: must be a finite number >= 0");
          assertThat(m).contains("bad.json:3:").contains("[request.type] /requests/1/type");
          assertThat(m).contains("bad.json:4:").contains("[request.in] /requests/2/in: must be an integer");
          assertThat(m).contains("[request.unknown-field] /requests/2/colour");
          assertThat(m).contains("bad.json:5:").contains("[trace.unknown-field] /extra");
        });
  }

  @Test
  void jsonlLinesAreLocatedInTheFile() throws Exception {
    Path f = tmp.resolve("traces.jsonl");
    Files.write(f, List.of(DEMO.replace("\n", " "), "", "{\"id\": \"y\", \"block_size\": 64, \"requests\": 5}"));
    assertThatThrownBy(() -> WekaTraces.load(f))
        .hasMessageContaining(f + ":3:").hasMessageContaining("[trace.requests] /2/requests");
    Files.write(f, List.of(DEMO.replace("\n", " "), DEMO.replace("\n", " ").replace("demo-1", "demo-2")));
    assertThat(WekaTraces.load(f)).extracting(WekaTrace::id).containsExactly("demo-1", "demo-2");
  }

  @Test
  void syntaxErrorsAndDuplicateKeysAreLocated() throws Exception {
    Path f = tmp.resolve("t.json");
    Files.writeString(f, "{\"id\": \"a\",\n \"id\": \"b\"}");
    assertThatThrownBy(() -> WekaTraces.load(f)).hasMessageContaining(f + ":2:").hasMessageContaining("json.syntax");
    assertThatThrownBy(() -> WekaTraces.load(tmp.resolve("missing.json"))).hasMessageContaining("no such trace file");
  }
}
