package io.infx.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ErrorKindTest {

  @Test
  void wireNamesAreUniqueAndReadBack() {
    Set<String> names = Arrays.stream(ErrorKind.values()).map(ErrorKind::wireName).collect(Collectors.toSet());
    assertThat(names).hasSize(ErrorKind.values().length);
    for (ErrorKind k : ErrorKind.values()) {
      assertThat(ErrorKind.fromWireName(k.wireName())).contains(k);
    }
    assertThat(ErrorKind.fromWireName("no-such-kind")).isEmpty();
  }

  @Test
  void wireNamesKeepTheSpellingsToolsAlreadyRead() {
    // error_kind values of the matrix and results conformance corpora, and infx's own names
    assertThat(ErrorKind.CONFIG_VALIDATION.wireName()).isEqualTo("config-validation");
    assertThat(ErrorKind.RUNNER_VALIDATION.wireName()).isEqualTo("runner-validation");
    assertThat(ErrorKind.CONFIG_LOAD.wireName()).isEqualTo("config-load");
    assertThat(ErrorKind.USAGE.wireName()).isEqualTo("usage");
    assertThat(ErrorKind.MISSING_ENV.wireName()).isEqualTo("missing_env");
    assertThat(ErrorKind.DIVISION_BY_ZERO.wireName()).isEqualTo("division_by_zero");
    assertThat(ErrorKind.CHAT_TEMPLATE.wireName()).isEqualTo("chat-template");
  }

  @Test
  void onlyUsageErrorsExitTwo() {
    for (ErrorKind k : ErrorKind.values()) {
      assertThat(k.exitCode()).as(k.wireName()).isEqualTo(k == ErrorKind.USAGE ? 2 : 1);
      assertThat(new InfxException(k, "m").exitCode()).isEqualTo(k.exitCode());
    }
    assertThat(new UsageException("bad").exitCode()).isEqualTo(2);
  }
}
