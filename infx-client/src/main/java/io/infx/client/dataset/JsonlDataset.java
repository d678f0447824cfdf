package io.infx.client.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.client.tokenizer.Tokenizer;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Prompts from a JSON Lines file: one object per line with {@code "prompt"} (string, required) and
 * optionally {@code "output_tokens"} (positive integer, else the default output length). Blank
 * lines are skipped. Prompt lengths are counted with the client's tokenizer.
 */
public final class JsonlDataset {

  private JsonlDataset() {}

  /**
   * Reads the file; {@code limit} prompts at most (cycling when the file has fewer).
   *
   * @throws InfxException kind {@code dataset} naming the file and line of the first bad entry
   */
  public static List<Prompt> read(Path file, Tokenizer tokenizer, int defaultOutputTokens,
      int limit) {
    List<Prompt> base = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int no = 0;
      while ((line = r.readLine()) != null) {
        no++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode n;
        try {
          n = Json.mapper().readTree(line);
        } catch (IOException e) {
          throw bad(file, no, "not valid JSON (" + e.getMessage().lines().findFirst().orElse("")
              + ")");
        }
        JsonNode p = n == null ? null : n.get("prompt");
        if (p == null || !p.isTextual()) {
          throw bad(file, no, "needs a string field \"prompt\"");
        }
        int out = defaultOutputTokens;
        JsonNode o = n.get("output_tokens");
        if (o != null) {
          if (!o.isInt() || o.asInt() < 1) {
            throw bad(file, no, "\"output_tokens\" must be a positive integer, got " + o);
          }
          out = o.asInt();
        }
        base.add(new Prompt(p.asText(), tokenizer.count(p.asText()), out));
      }
    } catch (IOException e) {
      throw new InfxException(ErrorKind.DATASET, "cannot read " + file + ": " + e.getMessage(), e);
    }
    if (base.isEmpty()) {
      throw new InfxException(ErrorKind.DATASET, file + ": no prompts");
    }
    List<Prompt> out = new ArrayList<>(limit);
    for (int i = 0; i < limit; i++) {
      out.add(base.get(i % base.size()));
    }
    return out;
  }

  private static InfxException bad(Path file, int line, String what) {
    return new InfxException(ErrorKind.DATASET, file + ":" + line + ":1: [dataset.jsonl] " + what);
  }
}
