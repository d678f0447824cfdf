package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SettingFlagsTest {

  @Test
  void settingsBecomeTheFlagsOfTheCommandThatRan() {
    var serve = new CommandLine(new BenchServeCommand()).getCommandSpec();
    assertThat(SettingFlags.flagFor(serve, "numPrompts")).isEqualTo("--num-prompts");
    assertThat(SettingFlags.flagFor(serve, "useChatTemplate")).isEqualTo("--use-chat-template");
    assertThat(SettingFlags.flagFor(serve, "histogramLog")).isEqualTo("--hlog");
    assertThat(SettingFlags.flagFor(serve, "resultDir")).isEqualTo("--result-dir");
    // a setting this command has no option for keeps its library name
    assertThat(SettingFlags.flagFor(serve, "allowSimulated")).isEqualTo("allowSimulated");
    var run = new CommandLine(new RunCommand()).getCommandSpec();
    assertThat(SettingFlags.flagFor(run, "simulator")).isEqualTo("--sim-option");
    assertThat(SettingFlags.flagFor(run, "runnerConfig")).isEqualTo("--runner-config");
  }

  @Test
  void kebabCase() {
    assertThat(SettingFlags.kebab("numPrompts")).isEqualTo("num-prompts");
    assertThat(SettingFlags.kebab("dsv4")).isEqualTo("dsv4");
    assertThat(SettingFlags.kebab("failedRequestThreshold")).isEqualTo("failed-request-threshold");
  }
}
