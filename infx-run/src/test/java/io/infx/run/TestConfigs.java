package io.infx.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small master configs and runner files written into a test's directory. */
final class TestConfigs {

  private TestConfigs() {}

  static final String RUNNERS = """
      labels:
        h200: [h200-cw_0, h200-cw_1]
        cluster:h200-cw: [h200-cw_0, h200-cw_1]
      clusters:
        h200-cw:
          gpus-per-node: 8
          arch: x86_64
          scheduler: slurm
          slurm: {partition: gpu, exclusive: false}
          env: {INFX_CLUSTER_NOTE: "from the cluster record"}
      """;

  /** One single-node 1k/1k entry at TP8 with the given concurrency list, on label {@code runner}. */
  static String singleNode(String key, String runner, int isl, int osl, String concList) {
    return key + ":\n"
        + "  image: img:1\n"
        + "  model: org/model\n"
        + "  model-prefix: mdl\n"
        + "  precision: fp8\n"
        + "  framework: sglang\n"
        + "  runner: " + runner + "\n"
        + "  multinode: false\n"
        + "  scenarios:\n"
        + "    fixed-seq-len:\n"
        + "    - isl: " + isl + "\n"
        + "      osl: " + osl + "\n"
        + "      search-space:\n"
        + "      - { tp: 8, conc-list: " + concList + " }\n";
  }

  static Path write(Path dir, String name, String text) throws IOException {
    Path f = dir.resolve(name);
    Files.createDirectories(dir);
    Files.writeString(f, text);
    return f;
  }

  /** The repository's examples/configs (Surefire passes the repository root). */
  static Path examples() {
    return Path.of(System.getProperty("infx.repo.root", "..")).toAbsolutePath().normalize()
        .resolve("examples").resolve("configs");
  }
}
