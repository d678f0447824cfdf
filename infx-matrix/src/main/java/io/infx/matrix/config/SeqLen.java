package io.infx.matrix.config;

import java.util.List;

/** An ISL/OSL pair of a {@code fixed-seq-len} block. */
public interface SeqLen {

  /** Input sequence length, tokens. */
  int isl();

  /** Output sequence length, tokens. */
  int osl();

  boolean requirePower();

  List<? extends SearchEntry> searchSpace();

  List<String> keys();

  /** {@code 1k1k} for 1024/1024, {@code 8k1k} for 8192/1024, else {@code <isl>_<osl>}. */
  default String family() {
    return family(isl(), osl());
  }

  static String family(int isl, int osl) {
    if (isl == 1024 && osl == 1024) {
      return "1k1k";
    }
    if (isl == 8192 && osl == 1024) {
      return "8k1k";
    }
    return isl + "_" + osl;
  }
}
