package io.infx.client.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.infx.client.tokenizer.BuiltinTokenizer;
import io.infx.client.tokenizer.Tokenizer;
import io.infx.core.UsageException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.quicktheories.core.Gen;

/**
 * The random dataset against client spec §2: length ranges {@code [int(len × r), len]} inclusive,
 * the draw order (prefix, input lengths, output lengths, offsets), the consecutive-id
 * construction {@code (offset_i + i + j) mod V}, the shared prefix, and that the recorded prompt
 * length is the client tokenizer's count of the final text.
 *
 * <p>With the builtin tokenizer decode/encode round-trips, so {@code encode(prompt.text)} exposes
 * the ids the generator built and the drawn input length is {@code promptTokens − prefixLen}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RandomDatasetTest {

  private static final BuiltinTokenizer TOK = BuiltinTokenizer.instance();
  private static final int V = BuiltinTokenizer.VOCAB_SIZE;

  /** Python's {@code int(len * r)} on a non-negative float product (spec §2 step 5). */
  private static int lower(int len, double ratio) {
    return (int) Math.floor(len * ratio);
  }

  /** {input length in [minIn, max], output length in [1, max]}. */
  private static Gen<int[]> lengths(int minIn, int max) {
    return integers().between(minIn, max).zip(integers().between(1, max),
        (a, b) -> new int[] {a, b});
  }

  @Test
  void lengthsStayInsideTheInclusiveRangeForAnyParameters() {
    qt().withExamples(60).forAll(lengths(0, 300), doubles().between(0.0, 1.0),
            integers().between(0, 20), longs().all())
        .checkAssert((len, ratio, prefix, seed) -> {
          int in = len[0];
          int out = len[1];
          List<Prompt> ps = RandomDataset.generate(TOK, in, out, ratio, prefix, 12, seed);
          assertThat(ps).hasSize(12);
          for (Prompt p : ps) {
            int inLen = p.promptTokens() - prefix;
            assertThat(inLen).as("input length for in=%d ratio=%s", in, ratio)
                .isBetween(lower(in, ratio), in);
            assertThat(p.outputTokens()).as("output length for out=%d ratio=%s", out, ratio)
                .isBetween(Math.max(1, lower(out, ratio)), out);
            // the recorded length is the tokenizer's count of the final text (spec §2 step 7)
            assertThat(p.promptTokens()).isEqualTo(TOK.count(p.text()));
          }
        });
  }

  @Test
  void bothEndsOfTheRangeAreDrawnAndTheMeanIsTheMidpoint() {
    // ISL = OSL = 10, r = 0.5: lengths uniform over the 6 integers 5..10 (upper end inclusive)
    int n = 3000;
    List<Prompt> ps = RandomDataset.generate(TOK, 10, 10, 0.5, 0, n, 7);
    TreeSet<Integer> ins = new TreeSet<>();
    TreeSet<Integer> outs = new TreeSet<>();
    double inSum = 0;
    double outSum = 0;
    for (Prompt p : ps) {
      ins.add(p.promptTokens());
      outs.add(p.outputTokens());
      inSum += p.promptTokens();
      outSum += p.outputTokens();
    }
    assertThat(ins).containsExactly(5, 6, 7, 8, 9, 10);
    assertThat(outs).containsExactly(5, 6, 7, 8, 9, 10);
    // uniform on 5..10: mean 7.5, sd sqrt(35/12) ≈ 1.71; the sample mean's sd is 1.71/sqrt(3000)
    // ≈ 0.031, so ±0.25 is 8 standard deviations
    assertThat(inSum / n).isBetween(7.25, 7.75);
    assertThat(outSum / n).isBetween(7.25, 7.75);
  }

  @Test
  void inferenceXDefaultsGiveLengthsIn819To1024() {
    List<Prompt> ps = RandomDataset.generate(TOK, 1024, 1024, 0.8, 0, 200, 0);
    assertThat(ps).allSatisfy(p -> {
      assertThat(p.promptTokens()).isBetween(819, 1024);
      assertThat(p.outputTokens()).isBetween(819, 1024);
    });
    double meanOut = ps.stream().mapToInt(Prompt::outputTokens).average().orElseThrow();
    // mean 921.5, sd ≈ 59.5 per draw → ≈ 4.2 for the mean of 200; ±30 is > 7 sd
    assertThat(meanOut).isBetween(891.5, 951.5);
  }

  @Test
  void eachPromptIsARunOfConsecutiveIdsAfterTheSharedPrefix() {
    int prefix = 5;
    List<Prompt> ps = RandomDataset.generate(TOK, 40, 8, 0.5, prefix, 30, 11);
    int[] firstPrefix = Arrays.copyOf(TOK.encode(ps.get(0).text()), prefix);
    for (Prompt p : ps) {
      int[] ids = TOK.encode(p.text());
      assertThat(ids.length).isEqualTo(p.promptTokens());
      assertThat(Arrays.copyOf(ids, prefix)).as("shared prefix").isEqualTo(firstPrefix);
      for (int j = prefix + 1; j < ids.length; j++) {
        assertThat(ids[j]).as("id %d follows id %d", j, j - 1).isEqualTo((ids[j - 1] + 1) % V);
      }
    }
    // the prefix really is random ids, not a constant
    assertThat(Arrays.stream(firstPrefix).distinct().count()).isGreaterThan(1);
  }

  /**
   * A second implementation of spec §2 steps 3 and 5 with the RNG the class documents
   * ({@link SplittableRandom} seeded with the seed, uniform integer draws): prefix ids, then all
   * input lengths, then all output lengths, then all offsets.
   */
  private record Expected(int[] prefix, int[] in, int[] out, int[] offset) {
    static Expected draw(int inputLen, int outputLen, double r, int prefixLen, int n, long seed) {
      SplittableRandom rng = new SplittableRandom(seed);
      int[] prefix = new int[prefixLen];
      for (int k = 0; k < prefixLen; k++) {
        prefix[k] = rng.nextInt(0, V);
      }
      int inLo = lower(inputLen, r);
      int outLo = Math.max(1, lower(outputLen, r));
      int[] in = new int[n];
      int[] out = new int[n];
      int[] off = new int[n];
      for (int i = 0; i < n; i++) {
        in[i] = rng.nextInt(inLo, inputLen + 1);
      }
      for (int i = 0; i < n; i++) {
        out[i] = rng.nextInt(outLo, outputLen + 1);
      }
      for (int i = 0; i < n; i++) {
        off[i] = rng.nextInt(0, V);
      }
      return new Expected(prefix, in, out, off);
    }

    /** Spec §2 step 7: prefix ++ [(offset_i + i + j) mod V for j in 0..in_i−1]. */
    int[] ids(int i) {
      int[] ids = Arrays.copyOf(prefix, prefix.length + in[i]);
      for (int j = 0; j < in[i]; j++) {
        ids[prefix.length + j] = (int) (((long) offset[i] + i + j) % V);
      }
      return ids;
    }
  }

  @Test
  void drawOrderAndPromptTextFollowTheSpec() {
    qt().withExamples(40).forAll(lengths(1, 120), doubles().between(0.0, 1.0),
            integers().between(0, 12), longs().all())
        .checkAssert((len, ratio, prefix, seed) -> {
          int in = len[0];
          int out = len[1];
          int n = 9;
          Expected e = Expected.draw(in, out, ratio, prefix, n, seed);
          List<Prompt> ps = RandomDataset.generate(TOK, in, out, ratio, prefix, n, seed);
          for (int i = 0; i < n; i++) {
            Prompt p = ps.get(i);
            assertThat(p.outputTokens()).as("output length %d", i).isEqualTo(e.out()[i]);
            assertThat(p.promptTokens()).as("prompt length %d", i)
                .isEqualTo(prefix + e.in()[i]);
            // the builtin tokenizer's text of token k is " " + word(k): build the text by hand
            StringBuilder text = new StringBuilder();
            for (int id : e.ids(i)) {
              text.append(BuiltinTokenizer.tokenText(id));
            }
            assertThat(p.text()).as("text of prompt %d", i).isEqualTo(text.toString());
          }
        });
  }

  @Test
  void withoutAPrefixTheRngIsNotAdvanced() {
    // spec §2 step 3: Lp = 0 draws nothing, so lengths come straight from the seed's first draws
    Expected e = Expected.draw(100, 50, 0.3, 0, 20, 42);
    List<Prompt> ps = RandomDataset.generate(TOK, 100, 50, 0.3, 0, 20, 42);
    for (int i = 0; i < 20; i++) {
      assertThat(ps.get(i).promptTokens()).isEqualTo(e.in()[i]);
      assertThat(ps.get(i).outputTokens()).isEqualTo(e.out()[i]);
    }
    // and a prefix does shift every later draw
    List<Prompt> withPrefix = RandomDataset.generate(TOK, 100, 50, 0.3, 3, 20, 42);
    List<Integer> a = ps.stream().map(Prompt::outputTokens).toList();
    List<Integer> b = withPrefix.stream().map(Prompt::outputTokens).toList();
    assertThat(b).isNotEqualTo(a);
  }

  @Test
  void sameSeedSamePromptsDifferentSeedDifferentPrompts() {
    qt().withExamples(30).forAll(longs().all(), longs().all()).assuming((a, b) -> !a.equals(b))
        .checkAssert((a, b) -> {
          List<Prompt> first = RandomDataset.generate(TOK, 64, 16, 0.5, 4, 10, a);
          List<Prompt> again = RandomDataset.generate(TOK, 64, 16, 0.5, 4, 10, a);
          List<Prompt> other = RandomDataset.generate(TOK, 64, 16, 0.5, 4, 10, b);
          assertThat(again).isEqualTo(first);
          assertThat(other.stream().map(Prompt::text).toList())
              .isNotEqualTo(first.stream().map(Prompt::text).toList());
        });
  }

  @Test
  void ratioOneGivesExactLengthsWithTheBuiltinTokenizer() {
    for (int prefix : new int[] {0, 7}) {
      List<Prompt> ps = RandomDataset.generate(TOK, 333, 77, 1.0, prefix, 25, 5);
      assertThat(ps).allSatisfy(p -> {
        assertThat(p.promptTokens()).isEqualTo(333 + prefix);
        assertThat(TOK.count(p.text())).isEqualTo(333 + prefix);
        assertThat(p.outputTokens()).isEqualTo(77);
      });
    }
  }

  @Test
  void prefixLengthIsHonouredAndShared() {
    List<Prompt> ps = RandomDataset.generate(TOK, 20, 4, 1.0, 50, 8, 3);
    int[] p0 = TOK.encode(ps.get(0).text());
    assertThat(p0).hasSize(70);
    for (Prompt p : ps) {
      int[] ids = TOK.encode(p.text());
      assertThat(ids).hasSize(70);
      assertThat(Arrays.copyOf(ids, 50)).isEqualTo(Arrays.copyOf(p0, 50));
    }
    // the part after the prefix differs per prompt (offsets are drawn per prompt, plus i)
    long distinctTails = ps.stream().map(p -> TOK.encode(p.text())[50]).distinct().count();
    assertThat(distinctTails).isEqualTo(8);
  }

  /**
   * A tokenizer whose decode drops every id ≡ 0 (mod 7), so the re-encode is short and the
   * generator must pad (spec §2 step 7); its ids are written {@code <n>}.
   */
  private static final class LossyTokenizer implements Tokenizer {
    private static final Pattern TOKEN = Pattern.compile("<(\\d+)>");

    @Override
    public String id() {
      return "lossy";
    }

    @Override
    public int vocabSize() {
      return 500;
    }

    @Override
    public int[] encode(String text) {
      List<Integer> ids = new ArrayList<>();
      Matcher m = TOKEN.matcher(text);
      while (m.find()) {
        ids.add(Integer.parseInt(m.group(1)));
      }
      return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public String decode(int[] ids) {
      StringBuilder sb = new StringBuilder();
      for (int id : ids) {
        if (id % 7 != 0) {
          sb.append('<').append(id).append('>');
        }
      }
      return sb.toString();
    }
  }

  @Test
  void paddingReachesTheTargetAndDoesNotDependOnParallelism() throws Exception {
    Tokenizer lossy = new LossyTokenizer();
    List<Prompt> common = RandomDataset.generate(lossy, 200, 10, 0.5, 3, 64, 9);
    List<Prompt> single;
    ForkJoinPool one = new ForkJoinPool(1);
    try {
      single = one.submit(() -> RandomDataset.generate(lossy, 200, 10, 0.5, 3, 64, 9))
          .get(60, TimeUnit.SECONDS);
    } finally {
      one.shutdownNow();
    }
    assertThat(single).isEqualTo(common);
    // the consecutive runs contain ids ≡ 0 mod 7 (about one in seven), which the first decode
    // drops; padding with fresh ids must restore the target length 3 + in_len
    Expected e = Expected.draw(200, 10, 0.5, 3, 64, 9);
    int padded = 0;
    for (int i = 0; i < 64; i++) {
      Prompt p = common.get(i);
      assertThat(p.promptTokens()).isEqualTo(lossy.count(p.text()));
      assertThat(p.promptTokens()).as("prompt %d reaches its target", i)
          .isEqualTo(3 + e.in()[i]);
      int[] naive = e.ids(i);
      if (!Arrays.equals(lossy.encode(p.text()), naive)) {
        padded++;
      }
    }
    assertThat(padded).as("prompts that needed padding").isPositive();
  }

  @Test
  void invalidParametersAreUsageErrors() {
    assertThatThrownBy(() -> RandomDataset.generate(TOK, 10, 10, 1.5, 0, 1, 0))
        .isInstanceOf(UsageException.class).hasMessageContaining("randomRangeRatio must be in [0, 1]");
    assertThatThrownBy(() -> RandomDataset.generate(TOK, -1, 10, 1.0, 0, 1, 0))
        .isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> RandomDataset.generate(TOK, 10, 0, 1.0, 0, 1, 0))
        .isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> RandomDataset.generate(TOK, 10, 10, Double.NaN, 0, 1, 0))
        .isInstanceOf(UsageException.class);
  }
}
