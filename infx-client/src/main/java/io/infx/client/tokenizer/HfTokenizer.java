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
 *
 * <p>Long texts, fast: a SentencePiece-style tokenizer converted to {@code tokenizer.json} (LLaMA,
 * Mistral: no pre-tokenizer, spaces normalised to {@code ▁}) treats the whole text as one word, and
 * BPE over one 65,536-token word takes seconds. When the file proves it safe — no pre-tokenizer
 * (or a non-splitting Metaspace), spaces become {@code ▁} with a prepended {@code ▁}, no
 * vocabulary token holds {@code ▁} past its first character (except runs of {@code ▁}), and no
 * added token holds a space — a text longer than {@value #CHUNK_CHARS} characters is encoded in
 * pieces cut at single spaces between non-spaces: no token can span such a cut, so the ids are
 * the same as encoding the whole text (checked against the whole-text encoding in the tests).
 */
public final class HfTokenizer implements Tokenizer {

  /** Texts longer than this (chars) are encoded in pieces when the tokenizer allows it. */
  static final int CHUNK_CHARS = 4096;

  private final HuggingFaceTokenizer tokenizer;
  private final String id;
  private final int vocabSize;
  private final boolean chunkAtSpaces;

  private HfTokenizer(HuggingFaceTokenizer tokenizer, String id, int vocabSize,
      boolean chunkAtSpaces) {
    this.tokenizer = tokenizer;
    this.id = id;
    this.vocabSize = vocabSize;
    this.chunkAtSpaces = chunkAtSpaces;
  }

  /** True when no token can span a single space between non-spaces (see the class comment). */
  static boolean chunkableAtSpaces(JsonNode root) {
    JsonNode pre = root.path("pre_tokenizer");
    JsonNode norm = root.path("normalizer");
    boolean metaspaceNorm = false;
    if (pre.isNull() || pre.isMissingNode()) {
      // LLaMA converter: normalizer Sequence[Prepend("▁"), Replace(" " → "▁")]
      boolean prepend = false;
      boolean replace = false;
      for (JsonNode n : norm.path("normalizers")) {
        String type = n.path("type").asText();
        if (type.equals("Prepend") && n.path("prepend").asText().equals("\u2581")) {
          prepend = true;
        } else if (type.equals("Replace") && n.path("pattern").path("String").asText().equals(" ")
            && n.path("content").asText().equals("\u2581")) {
          replace = true;
        } else {
          return false;
        }
      }
      metaspaceNorm = prepend && replace;
    } else if (pre.path("type").asText().equals("Metaspace") && (norm.isNull() || norm.isMissingNode())) {
      String scheme = pre.path("prepend_scheme").asText(pre.path("add_prefix_space").asBoolean(true)
          ? "always" : "never");
      metaspaceNorm = pre.path("replacement").asText().equals("\u2581")
          && !pre.path("split").asBoolean(true) && !scheme.equals("never");
    }
    if (!metaspaceNorm) {
      return false;
    }
    JsonNode vocab = root.path("model").path("vocab");
    if (!vocab.isObject()) {
      return false; // Unigram (array) or no vocab: not proven
    }
    for (var it = vocab.fieldNames(); it.hasNext(); ) {
      String t = it.next();
      int inner = t.indexOf('\u2581', 1);
      if (inner >= 0 && !t.chars().allMatch(c -> c == '\u2581')) {
        return false;
      }
    }
    for (JsonNode a : root.path("added_tokens")) {
      if (a.path("content").asText().indexOf(' ') >= 0) {
        return false;
      }
    }
    return true;
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
    boolean chunkable;
    try {
      JsonNode root = Json.mapper().readTree(file.toFile());
      vocab = baseVocabSize(root);
      chunkable = chunkableAtSpaces(root);
    } catch (IOException e) {
      throw new InfxException("tokenizer", "cannot read " + file + ": " + e.getMessage(), e);
    }
    try {
      HuggingFaceTokenizer t = HuggingFaceTokenizer.newInstance(file,
          Map.of("addSpecialTokens", "false", "truncation", "false", "padding", "false"));
      return new HfTokenizer(t, id, vocab, chunkable);
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
    if (!chunkAtSpaces || text.length() <= CHUNK_CHARS) {
      return encodeWhole(text);
    }
    int[] out = new int[Math.max(16, text.length() / 3)];
    int n = 0;
    int start = 0;
    while (start < text.length()) {
      int cut = nextCut(text, start + CHUNK_CHARS);
      // a continuation piece starts at its cut space; the tokenizer prepends the ▁ itself
      String piece = start == 0 ? text.substring(0, cut) : text.substring(start + 1, cut);
      int[] ids = encodeWhole(piece);
      if (n + ids.length > out.length) {
        out = java.util.Arrays.copyOf(out, Math.max(out.length * 2, n + ids.length));
      }
      System.arraycopy(ids, 0, out, n, ids.length);
      n += ids.length;
      start = cut;
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /** The first single space between non-spaces at or after {@code from}, else the text's end. */
  private static int nextCut(String text, int from) {
    for (int k = Math.max(1, from); k < text.length() - 1; k++) {
      if (text.charAt(k) == ' ' && text.charAt(k - 1) != ' ' && text.charAt(k + 1) != ' ') {
        return k;
      }
    }
    return text.length();
  }

  /** True when long texts are encoded in pieces (see the class comment). */
  public boolean chunked() {
    return chunkAtSpaces;
  }

  /** The whole text through the tokenizer in one call (the reference for the piecewise path). */
  int[] encodeWhole(String text) {
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
