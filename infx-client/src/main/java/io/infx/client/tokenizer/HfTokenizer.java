package io.infx.client.tokenizer;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.InfxException;
import io.infx.core.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A Hugging Face {@code tokenizer.json} through DJL's Rust binding
 * ({@code ai.djl.huggingface:tokenizers}), loaded from a local file only — never downloaded.
 * Built with {@code addSpecialTokens=false} and {@code truncation=false} (DJL otherwise truncates
 * at 512 tokens). {@link #vocabSize()} is the base vocabulary size as HF's {@code vocab_size}:
 * the model's vocabulary without added tokens that are not part of it.
 */
public final class HfTokenizer implements Tokenizer {

  private final HuggingFaceTokenizer tokenizer;
  private final String id;
  private final int vocabSize;

  private HfTokenizer(HuggingFaceTokenizer tokenizer, String id, int vocabSize) {
    this.tokenizer = tokenizer;
    this.id = id;
    this.vocabSize = vocabSize;
  }

  /**
   * Loads {@code tokenizer.json}.
   *
   * @param file a {@code tokenizer.json}
   * @param id the id to report (e.g. the path or model id the user gave)
   * @throws InfxException kind {@code tokenizer} when the file is missing or unreadable
   */
  public static HfTokenizer load(Path file, String id) {
    if (!Files.isRegularFile(file)) {
      throw new InfxException("tokenizer", "tokenizer file not found: " + file);
    }
    int vocab;
    try {
      JsonNode root = Json.mapper().readTree(file.toFile());
      vocab = baseVocabSize(root);
    } catch (IOException e) {
      throw new InfxException("tokenizer", "cannot read " + file + ": " + e.getMessage(), e);
    }
    try {
      HuggingFaceTokenizer t = HuggingFaceTokenizer.newInstance(file,
          Map.of("addSpecialTokens", "false", "truncation", "false", "padding", "false"));
      return new HfTokenizer(t, id, vocab);
    } catch (IOException | RuntimeException e) {
      throw new InfxException("tokenizer", "cannot load tokenizer " + file + ": " + e.getMessage(), e);
    }
  }

  static int baseVocabSize(JsonNode root) {
    JsonNode vocab = root.path("model").path("vocab");
    if (vocab.isObject() || vocab.isArray()) {
      return vocab.size();
    }
    // e.g. a model type without a vocab table: fall back to the largest id + 1
    int max = -1;
    for (JsonNode t : root.path("added_tokens")) {
      max = Math.max(max, t.path("id").asInt(-1));
    }
    return max + 1;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public int vocabSize() {
    return vocabSize;
  }

  @Override
  public int[] encode(String text) {
    Encoding e = tokenizer.encode(text, false, false);
    long[] ids = e.getIds();
    int[] out = new int[ids.length];
    for (int i = 0; i < ids.length; i++) {
      out[i] = (int) ids[i];
    }
    return out;
  }

  @Override
  public String decode(int[] ids) {
    long[] l = new long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      l[i] = ids[i];
    }
    return tokenizer.decode(l, false);
  }

  @Override
  public void close() {
    tokenizer.close();
  }
}
