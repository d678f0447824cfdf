package io.infx.core.io;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FileNamesTest {

  @Test
  void namesThatLeaveTheirDirectoryOrBreakFileSystemsAreRefused() {
    assertThat(FileNames.problem("../../etc/x")).get().asString().contains("'/'");
    assertThat(FileNames.problem("a\\b")).get().asString().contains("'\\'");
    assertThat(FileNames.problem("..")).isPresent();
    assertThat(FileNames.problem(".")).isPresent();
    assertThat(FileNames.problem("")).isPresent();
    assertThat(FileNames.problem("a\u0000b")).get().asString().contains("U+0000");
    assertThat(FileNames.problem("x".repeat(256))).get().asString().contains("256 bytes");
    assertThat(FileNames.problem("é".repeat(128))).get().asString().contains("256 bytes");
  }

  @Test
  void ordinaryResultNamesPass() {
    assertThat(FileNames.isSafe("dsr1_1k1k_fp8_sglang_tp8-pp1-dcp1-pcp1-ep1-dpaFalse_disagg-false_spec-none_conc4_h200-nv_0"))
        .isTrue();
    assertThat(FileNames.isSafe("..dots.in.name..")).isTrue();
    assertThat(FileNames.isSafe("x".repeat(255))).isTrue();
    assertThat("dsr1/..".matches(FileNames.PART_REGEX)).isFalse();
    assertThat("qwen3.5".matches(FileNames.PART_REGEX)).isTrue();
  }
}
