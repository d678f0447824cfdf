package io.infx.matrix;

import io.infx.matrix.config.MasterConfig;
import java.util.Objects;
import java.util.Optional;

/**
 * What every master config says about itself: container image, model, model prefix, precision,
 * serving framework and runner label, plus the catalogue key it is filed under. An immutable value.
 *
 * <p>Built with a staged builder, so a config missing one of the six does not compile (rather than
 * failing when it is expanded):
 *
 * <pre>{@code
 * ConfigIdentity llama = ConfigIdentity.image("vllm/vllm-openai:v0.11.0")
 *     .model("meta-llama/Llama-3.1-70B-Instruct")
 *     .modelPrefix("llama").precision("fp8").framework("vllm").runner("h100");
 * llama.key();                        // "llama-fp8-h100-vllm"
 * llama.withKey("llama70b-fp8-h100"); // another value; llama is unchanged
 * }</pre>
 *
 * <p>Only {@code null} is rejected here. Empty or blank strings are accepted, as the reference accepts
 * them in YAML (six empty strings give the key {@code ---} and rows with empty fields; see
 * docs/decisions.md, Matrix). The key rules ({@code *}, {@code ?}, {@code [}, {@code ]}) and the
 * other master-config rules are checked with a pointer when the sweep validates the config.
 *
 * @see Sweep#singleNode(ConfigIdentity)
 */
public final class ConfigIdentity {

  private final Optional<String> explicitKey;
  private final String image;
  private final String model;
  private final String modelPrefix;
  private final String precision;
  private final String framework;
  private final String runner;

  private ConfigIdentity(Optional<String> explicitKey, String image, String model, String modelPrefix,
      String precision, String framework, String runner) {
    this.explicitKey = explicitKey;
    this.image = image;
    this.model = model;
    this.modelPrefix = modelPrefix;
    this.precision = precision;
    this.framework = framework;
    this.runner = runner;
  }

  /**
   * First stage: the container image (e.g. {@code vllm/vllm-openai:v0.11.0}).
   *
   * @throws NullPointerException naming the missing argument, at any stage
   */
  public static ModelStage image(String image) {
    String i = Objects.requireNonNull(image, "image");
    return model -> {
      String m = Objects.requireNonNull(model, "model");
      return modelPrefix -> {
        String mp = Objects.requireNonNull(modelPrefix, "modelPrefix");
        return precision -> {
          String p = Objects.requireNonNull(precision, "precision");
          return framework -> {
            String f = Objects.requireNonNull(framework, "framework");
            return runner -> new ConfigIdentity(Optional.empty(), i, m, mp, p, f,
                Objects.requireNonNull(runner, "runner"));
          };
        };
      };
    };
  }

  /** The identity of a config that already exists (e.g. loaded from YAML), under its conventional key. */
  public static ConfigIdentity of(MasterConfig config) {
    Objects.requireNonNull(config, "config");
    return image(config.image()).model(config.model()).modelPrefix(config.modelPrefix())
        .precision(config.precision()).framework(config.framework()).runner(config.runner());
  }

  /** Stage after {@link #image}: the model id or path. */
  @FunctionalInterface
  public interface ModelStage {
    ModelPrefixStage model(String model);
  }

  /** Stage after {@code model}: the short model code ({@code dsr1}, {@code llama}) used in {@code exp-name}. */
  @FunctionalInterface
  public interface ModelPrefixStage {
    PrecisionStage modelPrefix(String modelPrefix);
  }

  /** Stage after {@code modelPrefix}: the precision, a free string ({@code fp4}, {@code fp8}, …). */
  @FunctionalInterface
  public interface PrecisionStage {
    FrameworkStage precision(String precision);
  }

  /** Stage after {@code precision}: the serving framework ({@code vllm}, {@code sglang}, {@code dynamo-trt}, …). */
  @FunctionalInterface
  public interface FrameworkStage {
    RunnerStage framework(String framework);
  }

  /** Last stage: the runner label (a key of the runner file's {@code labels}, or {@code cluster:<name>}). */
  @FunctionalInterface
  public interface RunnerStage {
    ConfigIdentity runner(String runner);
  }

  /** The same identity filed under {@code key} instead of the conventional key. */
  public ConfigIdentity withKey(String key) {
    return new ConfigIdentity(Optional.of(Objects.requireNonNull(key, "key")), image, model, modelPrefix,
        precision, framework, runner);
  }

  /**
   * The catalogue key: the one given to {@link #withKey}, else the catalogue convention
   * {@code <model-prefix>-<precision>-<runner>-<framework>} (a {@code cluster:} prefix dropped, glob
   * characters replaced by {@code _}), e.g. {@code llama-fp8-h100-vllm}.
   */
  public String key() {
    return explicitKey.orElseGet(() -> conventionalKey(modelPrefix, precision, runner, framework));
  }

  static String conventionalKey(String modelPrefix, String precision, String runner, String framework) {
    return (modelPrefix + "-" + precision + "-" + runner.replace("cluster:", "") + "-" + framework)
        .replaceAll("[*?\\[\\]]", "_");
  }

  public String image() {
    return image;
  }

  public String model() {
    return model;
  }

  public String modelPrefix() {
    return modelPrefix;
  }

  public String precision() {
    return precision;
  }

  public String framework() {
    return framework;
  }

  public String runner() {
    return runner;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ConfigIdentity c && key().equals(c.key()) && image.equals(c.image)
        && model.equals(c.model) && modelPrefix.equals(c.modelPrefix) && precision.equals(c.precision)
        && framework.equals(c.framework) && runner.equals(c.runner);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key(), image, model, modelPrefix, precision, framework, runner);
  }

  /** E.g. {@code llama-fp8-h100-vllm{image=vllm/vllm-openai:v0.11.0, model=…, model-prefix=llama, …}}. */
  @Override
  public String toString() {
    return key() + "{image=" + image + ", model=" + model + ", model-prefix=" + modelPrefix + ", precision="
        + precision + ", framework=" + framework + ", runner=" + runner + "}";
  }
}
