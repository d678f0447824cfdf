package io.infx.client.agentx;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.Location;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Reads Weka traces strictly (spec {@code agentx.md} §2.1): unknown fields, wrong types, negative
 * counts and times are errors that name the file, line, column, rule and JSON pointer — every error
 * of a file at once. Accepted layouts: a {@code .jsonl} file with one trace per line (the Hugging
 * Face corpora), a {@code .json} file holding one trace or an array of traces, or a directory of
 * such files (read in name order).
 *
 * <p>Hash ids are stored shared between consecutive requests ({@link HashIds}), so a corpus stays
 * small in memory.
 */
public final class WekaTraces {

  private static final JsonFactory FACTORY = JsonFactory.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();
  private static final ErrorKind KIND = ErrorKind.TRACE_VALIDATION;

  private WekaTraces() {}

  /**
   * Loads every trace under {@code path}.
   *
   * @throws ValidationException kind {@code trace-validation} listing every violation found
   * @throws InfxException kind {@code file} when a file cannot be read
   */
  public static List<WekaTrace> load(Path path) {
    List<Path> files = new ArrayList<>();
    if (Files.isDirectory(path)) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(path, "*.{json,jsonl}")) {
        ds.forEach(files::add);
      } catch (IOException e) {
        throw new InfxException(ErrorKind.FILE, "cannot list " + path + ": " + e.getMessage(), e);
      }
      files.sort(Comparator.comparing(p -> p.getFileName().toString()));
      if (files.isEmpty()) {
        throw new InfxException(ErrorKind.FILE, path + ": no *.json or *.jsonl trace files in this directory");
      }
    } else if (Files.isRegularFile(path)) {
      files.add(path);
    } else {
      throw new InfxException(ErrorKind.FILE, path + ": no such trace file or directory");
    }
    List<WekaTrace> traces = new ArrayList<>();
    List<Violation> violations = new ArrayList<>();
    for (Path f : files) {
      if (f.getFileName().toString().endsWith(".jsonl")) {
        readJsonl(f, traces, violations);
      } else {
        readJson(f, traces, violations);
      }
    }
    if (!violations.isEmpty()) {
      throw new ValidationException(KIND, violations);
    }
    return traces;
  }

  /**
   * Parses one trace from JSON text.
   *
   * @param source the name errors cite (e.g. a file name)
   * @throws ValidationException kind {@code trace-validation} listing every violation found
   */
  public static WekaTrace parse(String json, String source) {
    List<Violation> violations = new ArrayList<>();
    WekaTrace t = null;
    try (JsonParser p = FACTORY.createParser(json)) {
      Reader r = new Reader(p, source, 0, violations);
      if (r.expectStart(JsonToken.START_OBJECT, "", "trace.object", "a trace must be a JSON object")) {
        t = r.trace("");
      }
      r.expectEnd();
    } catch (JsonProcessingException e) {
      violations.add(syntax(source, 0, e));
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, source + ": " + e.getMessage(), e);
    }
    if (!violations.isEmpty() || t == null) {
      throw new ValidationException(KIND, violations.isEmpty()
          ? List.of(Violation.of("trace.object", source + ": no trace")) : violations);
    }
    return t;
  }

  private static void readJsonl(Path f, List<WekaTrace> out, List<Violation> violations) {
    try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
      String line;
      int lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        try (JsonParser p = FACTORY.createParser(line)) {
          Reader r = new Reader(p, f.toString(), lineNo - 1, violations);
          String ptr = "/" + (lineNo - 1);
          if (r.expectStart(JsonToken.START_OBJECT, ptr, "trace.object", "each line must hold one trace object")) {
            WekaTrace t = r.trace(ptr);
            if (t != null) {
              out.add(t);
            }
          }
          r.expectEnd();
        } catch (JsonProcessingException e) {
          violations.add(syntax(f.toString(), lineNo - 1, e));
        }
      }
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read " + f + ": " + e.getMessage(), e);
    }
  }

  private static void readJson(Path f, List<WekaTrace> out, List<Violation> violations) {
    try (JsonParser p = FACTORY.createParser(f.toFile())) {
      Reader r = new Reader(p, f.toString(), 0, violations);
      JsonToken first = p.nextToken();
      if (first == JsonToken.START_ARRAY) {
        int i = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
          String ptr = "/" + i++;
          if (p.currentToken() != JsonToken.START_OBJECT) {
            r.violation(ptr, "trace.object", "a trace must be a JSON object", null);
            p.skipChildren();
            continue;
          }
          WekaTrace t = r.trace(ptr);
          if (t != null) {
            out.add(t);
          }
        }
      } else if (first == JsonToken.START_OBJECT) {
        WekaTrace t = r.trace("");
        if (t != null) {
          out.add(t);
        }
      } else {
        r.violation("", "trace.object", "expected a trace object or an array of traces", null);
        return;
      }
      r.expectEnd();
    } catch (JsonProcessingException e) {
      violations.add(syntax(f.toString(), 0, e));
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read " + f + ": " + e.getMessage(), e);
    }
  }

  private static Violation syntax(String source, int lineOffset, JsonProcessingException e) {
    JsonLocation loc = e.getLocation();
    io.infx.core.ImmutableViolation.Builder b = Violation.builder().ruleId("json.syntax").message("invalid JSON: " + e.getOriginalMessage());
    if (loc != null && loc.getLineNr() > 0) {
      b.location(new Location(source, loc.getLineNr() + lineOffset, Math.max(1, loc.getColumnNr())));
    }
    return b.build();
  }

  /** Recursive-descent reader over one parser; records violations and keeps going. */
  private static final class Reader {
    private final JsonParser p;
    private final String source;
    private final int lineOffset;
    private final List<Violation> violations;

    Reader(JsonParser p, String source, int lineOffset, List<Violation> violations) {
      this.p = p;
      this.source = source;
      this.lineOffset = lineOffset;
      this.violations = violations;
    }

    boolean expectStart(JsonToken token, String ptr, String rule, String message) throws IOException {
      JsonToken t = p.nextToken();
      if (t != token) {
        violation(ptr, rule, message, t == null ? "nothing" : p.getText());
        if (t != null) {
          p.skipChildren();
        }
        return false;
      }
      return true;
    }

    void expectEnd() throws IOException {
      JsonToken t = p.nextToken();
      if (t != null) {
        violation("", "json.trailing", "unexpected content after the trace", p.getText());
      }
    }

    void violation(String ptr, String rule, String message, String actual) {
      JsonLocation loc = p.currentTokenLocation();
      io.infx.core.ImmutableViolation.Builder b = Violation.builder().ruleId(rule).pointer(ptr).message(message);
      if (loc != null && loc.getLineNr() > 0) {
        b.location(new Location(source, loc.getLineNr() + lineOffset, Math.max(1, loc.getColumnNr())));
      }
      if (actual != null) {
        b.actual(actual);
      }
      violations.add(b.build());
    }

    /** Reads a trace object; the parser is on its START_OBJECT. Null when invalid. */
    WekaTrace trace(String ptr) throws IOException {
      int before = violations.size();
      String id = null;
      List<String> models = List.of();
      Integer blockSize = null;
      WekaTrace.HashIdScope scope = WekaTrace.HashIdScope.LOCAL;
      int toolTokens = 0;
      int systemTokens = 0;
      List<TraceEntry> entries = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        String fp = ptr + "/" + name;
        p.nextToken();
        switch (name) {
          case "id" -> id = string(fp, "trace.id");
          case "models" -> models = strings(fp, "trace.models");
          case "block_size" -> {
            Long v = integer(fp, "trace.block-size", 1);
            blockSize = v == null ? null : (int) (long) v;
          }
          case "hash_id_scope" -> {
            String s = string(fp, "trace.hash-id-scope");
            if ("local".equals(s)) {
              scope = WekaTrace.HashIdScope.LOCAL;
            } else if ("global".equals(s)) {
              scope = WekaTrace.HashIdScope.GLOBAL;
            } else if (s != null) {
              violation(fp, "trace.hash-id-scope", "must be \"local\" or \"global\"", s);
            }
          }
          case "tool_tokens" -> toolTokens = intOr(fp, "trace.tool-tokens", 0);
          case "system_tokens" -> systemTokens = intOr(fp, "trace.system-tokens", 0);
          case "requests" -> entries = entries(fp);
          case "totals" -> p.skipChildren(); // opaque summary
          default -> unknown(fp, "trace");
        }
      }
      if (id == null) {
        violation(ptr, "trace.id", "a trace needs a string \"id\"", null);
      }
      if (blockSize == null) {
        violation(ptr, "trace.block-size", "a trace needs \"block_size\" (tokens per hash block)", null);
      }
      if (entries == null) {
        violation(ptr, "trace.requests", "a trace needs a \"requests\" array", null);
      }
      if (violations.size() > before) {
        return null;
      }
      return new WekaTrace(id, models, blockSize, scope, toolTokens, systemTokens, entries);
    }

    /** Reads an entries array; the parser is on its START_ARRAY (else a violation). */
    List<TraceEntry> entries(String ptr) throws IOException {
      if (p.currentToken() != JsonToken.START_ARRAY) {
        violation(ptr, "trace.requests", "must be an array of request and subagent entries", p.getText());
        p.skipChildren();
        return null;
      }
      List<TraceEntry> out = new ArrayList<>();
      HashIds prev = null;
      int[] prevIds = new int[0];
      int i = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        String ep = ptr + "/" + i++;
        if (p.currentToken() != JsonToken.START_OBJECT) {
          violation(ep, "trace.entry", "an entry must be a JSON object", p.getText());
          p.skipChildren();
          continue;
        }
        Object[] idsOut = new Object[1];
        TraceEntry e = entry(ep, prev, prevIds, idsOut);
        if (e != null) {
          out.add(e);
          if (e instanceof TraceRequest r) {
            prev = r.hashIds();
            prevIds = (int[]) idsOut[0];
          }
        }
      }
      return out;
    }

    private TraceEntry entry(String ptr, HashIds prev, int[] prevIds, Object[] idsOut) throws IOException {
      int before = violations.size();
      JsonLocation start = p.currentTokenLocation();
      Double t = null;
      String type = null;
      String model = null;
      Long in = null;
      Long out = null;
      int[] hashIds = new int[0];
      List<String> inputTypes = List.of();
      List<String> outputTypes = List.of();
      String stop = null;
      Double apiTime = null;
      Double thinkTime = null;
      Double ttft = null;
      String agentId = null;
      String subagentType = null;
      Long durationMs = null;
      Long totalTokens = null;
      Long toolUseCount = null;
      String status = null;
      List<String> models = List.of();
      List<TraceEntry> inner = null;
      int toolTokens = 0;
      int systemTokens = 0;
      List<String> fields = new ArrayList<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        String fp = ptr + "/" + name;
        fields.add(name);
        p.nextToken();
        switch (name) {
          case "t" -> t = number(fp, "request.t");
          case "type" -> type = string(fp, "request.type");
          case "model" -> model = string(fp, "request.model");
          case "in", "input_length" -> in = integer(fp, "request.in", 0);
          case "out", "output_length" -> out = integer(fp, "request.out", 0);
          case "hash_ids" -> hashIds = ints(fp);
          case "input_types" -> inputTypes = strings(fp, "request.input-types");
          case "output_types" -> outputTypes = strings(fp, "request.output-types");
          case "stop" -> stop = p.currentToken() == JsonToken.VALUE_NULL ? null : string(fp, "request.stop");
          case "api_time" -> apiTime = optionalNumber(fp, "request.api-time");
          case "think_time" -> thinkTime = optionalNumber(fp, "request.think-time");
          case "ttft" -> ttft = optionalNumber(fp, "request.ttft");
          case "agent_id" -> agentId = string(fp, "subagent.agent-id");
          case "subagent_type" -> subagentType = string(fp, "subagent.type");
          case "duration_ms" -> durationMs = optionalInteger(fp, "subagent.duration-ms");
          case "total_tokens" -> totalTokens = optionalInteger(fp, "subagent.total-tokens");
          case "tool_use_count" -> toolUseCount = optionalInteger(fp, "subagent.tool-use-count");
          case "status" -> status = p.currentToken() == JsonToken.VALUE_NULL ? null : string(fp, "subagent.status");
          case "models" -> models = strings(fp, "subagent.models");
          case "requests" -> inner = entries(fp);
          case "tool_tokens" -> toolTokens = intOr(fp, "subagent.tool-tokens", 0);
          case "system_tokens" -> systemTokens = intOr(fp, "subagent.system-tokens", 0);
          default -> unknown(fp, "entry");
        }
      }
      if (type == null) {
        violationAt(start, ptr, "request.type", "an entry needs \"type\": \"n\", \"s\" or \"subagent\"");
        return null;
      }
      boolean subagent = type.equals("subagent");
      if (!subagent && !type.equals("n") && !type.equals("s")) {
        violationAt(start, ptr + "/type", "request.type", "must be \"n\", \"s\" or \"subagent\"");
        return null;
      }
      List<String> allowed = subagent
          ? List.of("t", "type", "agent_id", "subagent_type", "duration_ms", "total_tokens",
              "tool_use_count", "status", "models", "requests", "tool_tokens", "system_tokens")
          : List.of("t", "type", "model", "in", "input_length", "out", "output_length", "hash_ids",
              "input_types", "output_types", "stop", "api_time", "think_time", "ttft");
      for (String f : fields) {
        if (!allowed.contains(f)) {
          violationAt(start, ptr + "/" + f, subagent ? "subagent.unknown-field" : "request.unknown-field",
              "field \"" + f + "\" is not allowed in a " + (subagent ? "subagent" : "request") + " entry");
        }
      }
      if (t == null) {
        violationAt(start, ptr, "request.t", "an entry needs \"t\" (seconds from conversation start)");
      }
      if (subagent) {
        if (agentId == null) {
          violationAt(start, ptr, "subagent.agent-id", "a subagent needs a string \"agent_id\"");
        }
        if (inner == null) {
          violationAt(start, ptr, "subagent.requests", "a subagent needs a \"requests\" array");
        }
        if (violations.size() > before) {
          return null;
        }
        return new SubagentEntry(t, agentId, subagentType == null ? "" : subagentType,
            opt(durationMs), opt(totalTokens), opt(toolUseCount), status == null ? "" : status,
            models, inner, toolTokens, systemTokens);
      }
      if (model == null) {
        violationAt(start, ptr, "request.model", "a request needs a string \"model\"");
      }
      if (in == null) {
        violationAt(start, ptr, "request.in", "a request needs \"in\" (input tokens)");
      }
      if (out == null) {
        violationAt(start, ptr, "request.out", "a request needs \"out\" (output tokens)");
      }
      if (violations.size() > before) {
        return null;
      }
      idsOut[0] = hashIds;
      return new TraceRequest(t, type.equals("s"), model, (int) (long) in, (int) (long) out,
          HashIds.sharing(prev, prevIds, hashIds), inputTypes, outputTypes, Optional.ofNullable(stop),
          optD(apiTime), optD(thinkTime), optD(ttft));
    }

    private static OptionalLong opt(Long v) {
      return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    private static OptionalDouble optD(Double v) {
      return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    private void unknown(String fp, String what) throws IOException {
      if (what.equals("trace")) {
        violation(fp, "trace.unknown-field", "field \"" + fp.substring(fp.lastIndexOf('/') + 1)
            + "\" is not allowed in a trace", null);
      }
      p.skipChildren();
    }

    private void violationAt(JsonLocation loc, String ptr, String rule, String message) {
      io.infx.core.ImmutableViolation.Builder b = Violation.builder().ruleId(rule).pointer(ptr).message(message);
      if (loc != null && loc.getLineNr() > 0) {
        b.location(new Location(source, loc.getLineNr() + lineOffset, Math.max(1, loc.getColumnNr())));
      }
      violations.add(b.build());
    }

    private String string(String fp, String rule) throws IOException {
      if (p.currentToken() != JsonToken.VALUE_STRING) {
        violation(fp, rule, "must be a string", p.getText());
        p.skipChildren();
        return null;
      }
      return p.getText();
    }

    private List<String> strings(String fp, String rule) throws IOException {
      if (p.currentToken() == JsonToken.VALUE_NULL) {
        return List.of();
      }
      if (p.currentToken() != JsonToken.START_ARRAY) {
        violation(fp, rule, "must be an array of strings", p.getText());
        p.skipChildren();
        return List.of();
      }
      List<String> out = new ArrayList<>();
      int i = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        String s = string(fp + "/" + i++, rule);
        if (s != null) {
          out.add(s);
        }
      }
      return out;
    }

    private int[] ints(String fp) throws IOException {
      if (p.currentToken() != JsonToken.START_ARRAY) {
        violation(fp, "request.hash-ids", "must be an array of non-negative integers", p.getText());
        p.skipChildren();
        return new int[0];
      }
      int[] buf = new int[64];
      int n = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
            || p.getLongValue() < 0 || p.getLongValue() > Integer.MAX_VALUE) {
          violation(fp + "/" + n, "request.hash-ids", "a hash id must be an integer in [0, 2^31)", p.getText());
          p.skipChildren();
          continue;
        }
        if (n == buf.length) {
          buf = Arrays.copyOf(buf, n * 2);
        }
        buf[n++] = p.getIntValue();
      }
      return Arrays.copyOf(buf, n);
    }

    private Double number(String fp, String rule) throws IOException {
      JsonToken tk = p.currentToken();
      if (tk != JsonToken.VALUE_NUMBER_INT && tk != JsonToken.VALUE_NUMBER_FLOAT) {
        violation(fp, rule, "must be a number", p.getText());
        p.skipChildren();
        return null;
      }
      double v = p.getDoubleValue();
      if (!Double.isFinite(v) || v < 0) {
        violation(fp, rule, "must be a finite number >= 0", p.getText());
        return null;
      }
      return v;
    }

    private Double optionalNumber(String fp, String rule) throws IOException {
      return p.currentToken() == JsonToken.VALUE_NULL ? null : number(fp, rule);
    }

    private Long integer(String fp, String rule, long min) throws IOException {
      if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
        violation(fp, rule, "must be an integer", p.getText());
        p.skipChildren();
        return null;
      }
      long v = p.getLongValue();
      if (v < min || v > Integer.MAX_VALUE) {
        violation(fp, rule, "must be an integer in [" + min + ", 2^31)", p.getText());
        return null;
      }
      return v;
    }

    private Long optionalInteger(String fp, String rule) throws IOException {
      return p.currentToken() == JsonToken.VALUE_NULL ? null : integer(fp, rule, 0);
    }

    private int intOr(String fp, String rule, int dflt) throws IOException {
      if (p.currentToken() == JsonToken.VALUE_NULL) {
        return dflt;
      }
      Long v = integer(fp, rule, 0);
      return v == null ? dflt : (int) (long) v;
    }
  }
}
