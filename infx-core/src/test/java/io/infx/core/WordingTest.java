package io.infx.core;

import static io.infx.core.Wording.setting;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WordingTest {

  @Test
  void theLibraryNamesSettingsInItsWordsAndAFrontEndInItsOwn() {
    UsageException e = new UsageException(Wording.of(setting("dsv4"), " requires ", setting("useChatTemplate"),
        " to be set."));
    assertThat(e.getMessage()).isEqualTo("dsv4 requires useChatTemplate to be set.");
    assertThat(e.settings()).containsExactly("dsv4", "useChatTemplate");
    assertThat(e.message(name -> "--" + name.toLowerCase())).isEqualTo("--dsv4 requires --usechattemplate to be set.");
    assertThat(e.exitCode()).isEqualTo(2);
  }

  @Test
  void aPlainMessageIsShownAsIsAndWordingsSplice() {
    InfxException plain = new InfxException(ErrorKind.FILE, "x is missing");
    assertThat(plain.settings()).isEmpty();
    assertThat(plain.message(n -> "--" + n)).isEqualTo("x is missing");
    Wording dir = Wording.of("the ", setting("histogramLog"), " directory");
    Wording full = Wording.of("cannot create ", dir, " /x: {not a setting} 100%");
    assertThat(full.toString()).isEqualTo("cannot create the histogramLog directory /x: {not a setting} 100%");
    assertThat(full.render(n -> "--hlog")).isEqualTo("cannot create the --hlog directory /x: {not a setting} 100%");
  }
}
