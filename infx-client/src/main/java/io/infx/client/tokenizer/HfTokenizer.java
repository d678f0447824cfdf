package io.infx.client.tokenizer;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

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
 * added token holds a space — a text is encoded word by word, cut at single spaces between
 * non-spaces that do not touch an added token (added tokens split the text before normalisation,
 * so the space before {@code <s>} is a {@code ▁} token of its own): no token can span such a cut,
 * so the ids are the same as encoding the whole text (checked against the whole-text encoding in
 * the tests). Words of up to {@value #MAX_CACHED_WORD_CHARS} characters are remembered (up to
 * {@value #MAX_CACHED_WORDS} of them), so the random dataset's texts — windows of one cyclic run of
 * ids — cost a hash lookup per word after the first prompt instead of a trip through the native
 * tokenizer; the words a text does not find are encoded in one native batch call.
 */
public final class HfTokenizer implements Tokenizer {

  /** Longest word (chars) remembered by the word cache; longer words are encoded each time. */
  static final int MAX_CACHED_WORD_CHARS = 48;
  /** Most words remembered; past this, words are encoded each time (memory stays bounded). */
  static final int MAX_CACHED_WORDS = 1 << 17;

  private final HuggingFaceTokenizer tokenizer;
  private final String id;
  private final int vocabSize;
  private final boolean chunkAtSpaces;
  /** First and last characters of added tokens: a space next to one is never cut at. */
  private final String addedFirst;
  private final String addedLast;
  private final ConcurrentHashMap<String, int[]> words = new ConcurrentHashMap<>();
  /** The Java decoder, when the file's decoder is the LLaMA one and it proved identical; else null. */
  private final ByteFallbackDecoder fastDecoder;

  private HfTokenizer(HuggingFaceTokenizer tokenizer, String id, int vocabSize,
      boolean chunkAtSpaces, String addedFirst, String addedLast, ByteFallbackDecoder fastDecoder) {
    this.tokenizer = tokenizer;
    this.fastDecoder = fastDecoder;
    this.id = id;
    this.vocabSize = vocabSize;
    this.chunkAtSpaces = chunkAtSpaces;
    this.addedFirst = addedFirst;
    this.addedLast = addedLast;
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
      throw new InfxException(ErrorKind.TOKENIZER, "tokenizer file not found: " + file);
    }
    int vocab;
    boolean chunkable;
    StringBuilder first = new StringBuilder();
    StringBuilder last = new StringBuilder();
    Optional<ByteFallbackDecoder> decoder;
    try {
      JsonNode root = Json.mapper().readTree(file.toFile());
      decoder = ByteFallbackDecoder.of(root);
      vocab = baseVocabSize(root);
      chunkable = chunkableAtSpaces(root);
      for (JsonNode a : root.path("added_tokens")) {
        String c = a.path("content").asText();
        if (!c.isEmpty()) {
          first.appendCodePoint(c.codePointAt(0));
          last.appendCodePoint(c.codePointBefore(c.length()));
        }
      }
    } catch (IOException e) {
      throw new InfxException(ErrorKind.TOKENIZER, "cannot read " + file + ": " + e.getMessage(), e);
    }
    try {
      HuggingFaceTokenizer t = HuggingFaceTokenizer.newInstance(file,
          Map.of("addSpecialTokens", "false", "truncation", "false", "padding", "false"));
      ByteFallbackDecoder fast = decoder.filter(d -> agreesWithNative(d, t)).orElse(null);
      return new HfTokenizer(t, id, vocab, chunkable, first.toString(), last.toString(), fast);
    } catch (IOException | RuntimeException e) {
      throw new InfxException(ErrorKind.TOKENIZER, "cannot load tokenizer " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Whether the Java decoder gives the native decoder's text on every token of the vocabulary
   * (in runs of consecutive ids, as the random dataset builds them) and on random sequences, half
   * of them rich in byte tokens (valid and broken UTF-8).
   */
  static boolean agreesWithNative(ByteFallbackDecoder d, HuggingFaceTokenizer native_) {
    int size = d.size();
    List<int[]> probes = new ArrayList<>();
    for (int from = 0; from < size; from += 512) {
      int[] ids = new int[Math.min(512, size - from)];
      for (int k = 0; k < ids.length; k++) {
        ids[k] = from + k;
      }
      probes.add(ids);
    }
    java.util.SplittableRandom rng = new java.util.SplittableRandom(12);
    for (int p = 0; p < 96; p++) {
      int[] ids = new int[64 + rng.nextInt(192)];
      for (int k = 0; k < ids.length; k++) {
        // ids 3..258 are LLaMA's byte tokens; elsewhere the draw simply hits other tokens
        ids[k] = p % 2 == 0 && rng.nextInt(3) > 0 ? 3 + rng.nextInt(256) : rng.nextInt(size);
      }
      probes.add(ids);
    }
    for (int[] ids : probes) {
      String mine = d.decode(ids);
      if (mine == null || !mine.equals(native_.decode(toLongs(ids), false))) {
        return false;
      }
    }
    return true;
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
    if (!chunkAtSpaces) {
      return encodeWhole(text);
    }
    // word i is text[starts[i], ends[i]); a continuation word starts after its cut space (the
    // tokenizer prepends the ▁ that space becomes)
    int[] starts = new int[16];
    int[] ends = new int[16];
    int count = 0;
    int start = 0;
    while (true) {
      int cut = nextCut(text, start + 1);
      if (count == starts.length) {
        starts = Arrays.copyOf(starts, count * 2);
        ends = Arrays.copyOf(ends, count * 2);
      }
      starts[count] = start;
      ends[count] = cut;
      count++;
      if (cut >= text.length()) {
        break;
      }
      start = cut + 1;
    }
    int[][] ids = new int[count][];
    List<String> missing = new ArrayList<>();
    Map<String, int[]> found = new HashMap<>();
    for (int w = 0; w < count; w++) {
      String word = text.substring(starts[w], ends[w]);
      int[] cached = word.length() <= MAX_CACHED_WORD_CHARS ? words.get(word) : null;
      if (cached != null) {
        ids[w] = cached;
      } else if (!found.containsKey(word)) {
        found.put(word, null);
        missing.add(word);
      }
    }
    if (!missing.isEmpty()) {
      // one native call for all the words this text does not find
      Encoding[] enc = tokenizer.batchEncode(missing.toArray(new String[0]), false, false);
      for (int k = 0; k < enc.length; k++) {
        String word = missing.get(k);
        int[] wid = toInts(enc[k].getIds());
        found.put(word, wid);
        if (word.length() <= MAX_CACHED_WORD_CHARS && words.size() < MAX_CACHED_WORDS) {
          words.putIfAbsent(word, wid);
        }
      }
    }
    int n = 0;
    for (int w = 0; w < count; w++) {
      if (ids[w] == null) {
        ids[w] = found.get(text.substring(starts[w], ends[w]));
      }
      n += ids[w].length;
    }
    int[] out = new int[n];
    int at = 0;
    for (int[] wid : ids) {
      System.arraycopy(wid, 0, out, at, wid.length);
      at += wid.length;
    }
    return out;
  }

  /**
   * The first cut at or after {@code from}, else the text's end: a single space between
   * non-spaces, neither of which can end or begin an added token.
   */
  private int nextCut(String text, int from) {
    for (int k = Math.max(1, from); k < text.length() - 1; k++) {
      if (text.charAt(k) == ' ') {
        char before = text.charAt(k - 1);
        char after = text.charAt(k + 1);
        if (before != ' ' && after != ' ' && addedLast.indexOf(before) < 0
            && addedFirst.indexOf(after) < 0) {
          return k;
        }
      }
    }
    return text.length();
  }

  /** True when texts are encoded word by word (see the class comment). */
  public boolean chunked() {
    return chunkAtSpaces;
  }

  /** The whole text through the tokenizer in one call (the reference for the piecewise path). */
  int[] encodeWhole(String text) {
    return toInts(tokenizer.encode(text, false, false).getIds());
  }

  private static int[] toInts(long[] ids) {
    int[] out = new int[ids.length];
    for (int i = 0; i < ids.length; i++) {
      out[i] = (int) ids[i];
    }
    return out;
  }

  @Override
  public String decode(int[] ids) {
    String fast = fastDecoder == null ? null : fastDecoder.decode(ids);
    return fast != null ? fast : decodeNative(ids);
  }

  /** The native decoder (the reference for the Java one). */
  String decodeNative(int[] ids) {
    return tokenizer.decode(toLongs(ids), false);
  }

  /** True when decoding runs in Java (see {@link ByteFallbackDecoder}). */
  public boolean fastDecode() {
    return fastDecoder != null;
  }

  private static long[] toLongs(int[] ids) {
    long[] l = new long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      l[i] = ids[i];
    }
    return l;
  }

  @Override
  public void close() {
    tokenizer.close();
  }
}
