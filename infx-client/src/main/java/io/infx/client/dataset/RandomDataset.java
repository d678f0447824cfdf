package io.infx.client.dataset;

import static io.infx.core.Wording.setting;

import io.infx.client.chat.PromptTemplate;
import io.infx.client.tokenizer.Tokenizer;
import io.infx.core.UsageException;
import io.infx.core.Wording;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * The reference's {@code random} dataset (client spec §2): input and output lengths uniform in
 * {@code [⌊len·ratio⌋, len]}, a shared random prefix of {@code prefixLen} ids, and per prompt a run
 * of consecutive token ids {@code (offset_i + i + j) mod V}; the ids are decoded, re-encoded,
 * padded with random ids or truncated (up to 10 rounds) to reach the target length, and the final
 * text's token count is the recorded prompt length.
 *
 * <p>With a chat template ({@code --use-chat-template}) the reference's accounting is kept: the
 * template's own length, {@code len(encode(template("a"))) - 1}, is subtracted from the input
 * length before sampling, each finished prompt is wrapped, and the wrapped text's token count is
 * the recorded prompt length.
 *
 * <p>Differences from the Python client, on purpose (see {@code docs/decisions.md}): the RNG is
 * Java's {@link SplittableRandom} seeded with {@code seed} (draw order kept: prefix, input lengths,
 * output lengths, offsets), so prompts are not byte-identical to Python's; padding uses a
 * per-prompt generator derived from the seed and the prompt index, so the text never depends on
 * the machine's CPU count. Prompts are built in parallel with identical results.
 */
public final class RandomDataset {

  private RandomDataset() {}

  /**
   * Builds {@code numPrompts} prompts.
   *
   * @throws UsageException for negative lengths, a ratio outside [0, 1] or an empty vocabulary
   */
  public static List<Prompt> generate(Tokenizer tokenizer, int inputLen, int outputLen,
      double rangeRatio, int prefixLen, int numPrompts, long seed) {
    return generate(tokenizer, inputLen, outputLen, rangeRatio, prefixLen, numPrompts, seed, null);
  }

  /**
   * Builds {@code numPrompts} prompts, each wrapped in {@code template} when one is given.
   *
   * @param template the chat framing, or null for raw prompts
   * @throws UsageException for negative lengths, a ratio outside [0, 1], an empty vocabulary, or
   *     an input length shorter than the template's own tokens
   */
  public static List<Prompt> generate(Tokenizer tokenizer, int inputLen, int outputLen,
      double rangeRatio, int prefixLen, int numPrompts, long seed, PromptTemplate template) {
    return generate(tokenizer, inputLen, outputLen, rangeRatio, prefixLen, numPrompts, seed,
        template, 0);
  }

  /**
   * Builds {@code numPrompts} prompts whose input length is counted as the server counts it: the
   * {@code serverAddedTokens} special tokens the server puts before (or after) every prompt — a
   * BOS on LLaMA-style models, measured at start-up by {@code ServerTokenCounts} — are part of
   * each drawn input length, so the text is built {@code serverAddedTokens} tokens shorter and
   * the recorded prompt length is its token count plus {@code serverAddedTokens}. With 0 this is
   * the reference's behaviour (which builds the full length and lets the server add its BOS on
   * top: a requested 256 is counted 257).
   *
   * @param template the chat framing, or null for raw prompts
   * @param serverAddedTokens special tokens the server adds to every prompt (≥ 0)
   * @throws UsageException as {@link #generate(Tokenizer, int, int, double, int, int, long,
   *     PromptTemplate)}, or for a negative {@code serverAddedTokens}
   */
  public static List<Prompt> generate(Tokenizer tokenizer, int inputLen, int outputLen,
      double rangeRatio, int prefixLen, int numPrompts, long seed, PromptTemplate template,
      int serverAddedTokens) {
    if (serverAddedTokens < 0) {
      throw new UsageException("random dataset: server-added tokens ≥ 0 required, got "
          + serverAddedTokens);
    }
    if (inputLen < 0 || outputLen < 1 || prefixLen < 0 || numPrompts < 0) {
      throw new UsageException("random dataset: input length ≥ 0, output length ≥ 1, prefix"
          + " length ≥ 0 and prompt count ≥ 0 required (got " + inputLen + ", " + outputLen + ", "
          + prefixLen + ", " + numPrompts + ")");
    }
    if (!(rangeRatio >= 0 && rangeRatio <= 1)) {
      throw new UsageException(Wording.of(setting("randomRangeRatio"), " must be in [0, 1], got " + rangeRatio));
    }
    int vocab = tokenizer.vocabSize();
    if (vocab < 1) {
      throw new UsageException("tokenizer " + tokenizer.id() + " has an empty vocabulary");
    }
    if (template != null) {
      int templateLen = templateTokens(tokenizer, template);
      if (inputLen - templateLen < 0) {
        throw new UsageException(Wording.of(setting("randomInputLen"), " " + inputLen + " is shorter than"
            + " the chat template's own " + templateLen + " tokens (" + template.description() + ")"));
      }
      inputLen -= templateLen;
    }
    SplittableRandom rng = new SplittableRandom(seed);
    int[] prefix = new int[prefixLen];
    for (int k = 0; k < prefixLen; k++) {
      prefix[k] = rng.nextInt(vocab);
    }
    int inLo = (int) Math.floor(inputLen * rangeRatio);
    int outLo = Math.max(1, (int) Math.floor(outputLen * rangeRatio));
    int[] inLens = new int[numPrompts];
    int[] outLens = new int[numPrompts];
    int[] offsets = new int[numPrompts];
    for (int i = 0; i < numPrompts; i++) {
      inLens[i] = inLo + rng.nextInt(inputLen - inLo + 1);
    }
    for (int i = 0; i < numPrompts; i++) {
      outLens[i] = outLo + rng.nextInt(outputLen - outLo + 1);
    }
    for (int i = 0; i < numPrompts; i++) {
      offsets[i] = rng.nextInt(vocab);
    }
    long padSeed = rng.nextLong();
    Prompt[] out = new Prompt[numPrompts];
    IntStream.range(0, numPrompts).parallel().forEach(i -> out[i] = build(tokenizer, vocab,
        prefix, inLens[i], outLens[i], offsets[i], i, new SplittableRandom(padSeed + i * 0x9E3779B97F4A7C15L),
        template, serverAddedTokens));
    return List.of(out);
  }

  /**
   * The tokens a chat template adds around a prompt, as the reference measures them:
   * {@code len(encode(template("a"), add_special_tokens=False)) - 1}.
   */
  public static int templateTokens(Tokenizer tokenizer, PromptTemplate template) {
    return tokenizer.count(template.apply("a")) - 1;
  }

  private static Prompt build(Tokenizer tok, int vocab, int[] prefix, int drawnLen, int outLen,
      int offset, int i, SplittableRandom pad, PromptTemplate template, int serverAdded) {
    // the server's own special tokens are part of the drawn length: build that many fewer
    // (the shared prefix stays whole, so prefix caching sees the same prefix)
    int inLen = Math.max(0, drawnLen - serverAdded);
    int target = prefix.length + inLen;
    int[] ids = Arrays.copyOf(prefix, target);
    for (int j = 0; j < inLen; j++) {
      ids[prefix.length + j] = (int) ((offset + (long) i + j) % vocab);
    }
    String text = tok.decode(ids);
    // the token count of the final text when the loop ended on it (saves one whole encode)
    int count = -1;
    for (int round = 0; round < 10; round++) {
      int[] enc = tok.encode(text);
      if (enc.length == target) {
        count = target;
        break;
      }
      int[] adjusted;
      if (enc.length < target) {
        adjusted = Arrays.copyOf(enc, target);
        for (int k = enc.length; k < target; k++) {
          adjusted[k] = pad.nextInt(vocab);
        }
      } else {
        adjusted = Arrays.copyOf(enc, target);
      }
      text = tok.decode(adjusted);
    }
    if (template != null) {
      text = template.apply(text);
      count = -1;
    }
    return new Prompt(text, (count >= 0 ? count : tok.count(text)) + serverAdded, outLen);
  }
}
