package io.infx.client.tokenizer;

import java.util.Arrays;

/**
 * A small deterministic tokenizer shared by the client ({@code --tokenizer builtin}) and the
 * embedded simulator (its {@code /tokenize} and usage counts), so both sides count the same
 * tokens without any download.
 *
 * <p>Vocabulary: {@value #VOCAB_SIZE} ids; id {@code i} is the text {@code " " + word(i)} where
 * {@code word} writes {@code i + 1} in bijective base 70 over consonant–vowel syllables
 * ({@code " ba"}, {@code " be"}, …, {@code " baba"}, …). Decoding concatenates token texts, and
 * encoding a decoded sequence gives the same ids back, so the random dataset's
 * decode/re-encode loop converges at once.
 *
 * <p>Encoding arbitrary text: the text is split into pieces — a run of ASCII letters or of digits,
 * with one leading space when present, or any other single character — and each piece is one
 * token: its canonical id when it is a vocabulary word, else a stable hash of the piece modulo the
 * vocabulary (FNV-1a). English text comes out at roughly one token per word plus punctuation.
 */
public final class BuiltinTokenizer implements Tokenizer {

  public static final int VOCAB_SIZE = 32000;
  private static final String CONSONANTS = "bdfgklmnprstvz";
  private static final String VOWELS = "aeiou";
  private static final int BASE = CONSONANTS.length() * VOWELS.length();
  private static final BuiltinTokenizer INSTANCE = new BuiltinTokenizer();
  private static final String[] WORDS = new String[VOCAB_SIZE];

  static {
    for (int i = 0; i < VOCAB_SIZE; i++) {
      WORDS[i] = " " + word(i);
    }
  }

  private BuiltinTokenizer() {}

  public static BuiltinTokenizer instance() {
    return INSTANCE;
  }

  @Override
  public String id() {
    return "builtin";
  }

  @Override
  public int vocabSize() {
    return VOCAB_SIZE;
  }

  /** The text of token {@code id} (with its leading space). */
  public static String tokenText(int id) {
    return WORDS[Math.floorMod(id, VOCAB_SIZE)];
  }

  private static String word(int id) {
    StringBuilder sb = new StringBuilder(8);
    long n = id + 1L;
    while (n > 0) {
      n--;
      int d = (int) (n % BASE);
      sb.append(CONSONANTS.charAt(d / VOWELS.length())).append(VOWELS.charAt(d % VOWELS.length()));
      n /= BASE;
    }
    // most significant syllable first
    StringBuilder out = new StringBuilder(sb.length());
    for (int k = sb.length() - 2; k >= 0; k -= 2) {
      out.append(sb, k, k + 2);
    }
    return out.toString();
  }

  /** The id of a canonical word (lowercase syllables, no space), or -1. */
  private static int wordId(CharSequence s, int from, int to) {
    int len = to - from;
    if (len == 0 || len % 2 != 0 || len > 6) {
      return -1;
    }
    long n = 0;
    for (int k = from; k < to; k += 2) {
      int c = CONSONANTS.indexOf(s.charAt(k));
      int v = VOWELS.indexOf(s.charAt(k + 1));
      if (c < 0 || v < 0) {
        return -1;
      }
      n = n * BASE + (c * VOWELS.length() + v) + 1;
    }
    long id = n - 1;
    return id < VOCAB_SIZE ? (int) id : -1;
  }

  @Override
  public int[] encode(String text) {
    int[] out = new int[Math.max(8, text.length() / 3)];
    int n = 0;
    int i = 0;
    int len = text.length();
    while (i < len) {
      int start = i;
      boolean space = text.charAt(i) == ' ' && i + 1 < len && isWordChar(text.charAt(i + 1));
      if (space) {
        i++;
      }
      char c = text.charAt(i);
      int id;
      if (isLetter(c) || isDigit(c)) {
        boolean letters = isLetter(c);
        int j = i + 1;
        while (j < len && (letters ? isLetter(text.charAt(j)) : isDigit(text.charAt(j)))) {
          j++;
        }
        int w = space && letters ? wordId(text, i, j) : -1;
        id = w >= 0 ? w : hash(text, start, j);
        i = j;
      } else {
        int cp = text.codePointAt(i);
        i += Character.charCount(cp);
        id = hash(text, start, i);
      }
      if (n == out.length) {
        out = Arrays.copyOf(out, n * 2);
      }
      out[n++] = id;
    }
    return Arrays.copyOf(out, n);
  }

  @Override
  public int count(String text) {
    return encode(text).length;
  }

  @Override
  public String decode(int[] ids) {
    StringBuilder sb = new StringBuilder(ids.length * 6);
    for (int id : ids) {
      if (id >= 0 && id < VOCAB_SIZE) {
        sb.append(WORDS[id]);
      }
    }
    return sb.toString();
  }

  private static boolean isWordChar(char c) {
    return isLetter(c) || isDigit(c);
  }

  private static boolean isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static int hash(CharSequence s, int from, int to) {
    int h = 0x811c9dc5;
    for (int k = from; k < to; k++) {
      h ^= s.charAt(k);
      h *= 0x01000193;
    }
    return Math.floorMod(h, VOCAB_SIZE);
  }
}
