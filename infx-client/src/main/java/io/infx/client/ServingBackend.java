package io.infx.client;

import io.infx.core.UsageException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The {@code --backend} values of the reference client (InferenceX {@code benchmark_serving.py}),
 * each mapped to the OpenAI API it speaks. {@code vllm}, {@code sglang}, {@code openai},
 * {@code lmdeploy} and {@code scalellm} use the Completions API; {@code openai-chat} uses Chat
 * Completions. The legacy {@code tensorrt-llm}, {@code tgi} and {@code deepspeed-mii} backends are not
 * supported (InferenceX does not use them).
 */
public enum ServingBackend {
  VLLM("vllm", Api.COMPLETIONS),
  SGLANG("sglang", Api.COMPLETIONS),
  OPENAI("openai", Api.COMPLETIONS),
  LMDEPLOY("lmdeploy", Api.COMPLETIONS),
  SCALELLM("scalellm", Api.COMPLETIONS),
  OPENAI_CHAT("openai-chat", Api.CHAT);

  /** Which OpenAI endpoint family a backend speaks. */
  public enum Api {
    /** {@code /v1/completions}: {@code prompt}, {@code choices[].text}. */
    COMPLETIONS("/v1/completions"),
    /** {@code /v1/chat/completions}: {@code messages}, {@code choices[].delta}. */
    CHAT("/v1/chat/completions");

    private final String defaultEndpoint;

    Api(String defaultEndpoint) {
      this.defaultEndpoint = defaultEndpoint;
    }

    public String defaultEndpoint() {
      return defaultEndpoint;
    }
  }

  private final String cliName;
  private final Api api;

  ServingBackend(String cliName, Api api) {
    this.cliName = cliName;
    this.api = api;
  }

  /** The name used on the command line and in the raw result's {@code backend} field. */
  public String cliName() {
    return cliName;
  }

  public Api api() {
    return api;
  }

  /**
   * Parses a {@code --backend} value.
   *
   * @throws UsageException for an unknown or unsupported backend, listing the supported ones
   */
  public static ServingBackend parse(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    for (ServingBackend b : values()) {
      if (b.cliName.equals(n)) {
        return b;
      }
    }
    String known = Arrays.stream(values()).map(ServingBackend::cliName).collect(Collectors.joining(", "));
    if (n.equals("tensorrt-llm") || n.equals("tgi") || n.equals("deepspeed-mii")) {
      throw new UsageException("backend '" + name + "' is a legacy backend infx does not support"
          + " (supported: " + known + ")");
    }
    throw new UsageException("unknown backend '" + name + "' (supported: " + known + ")");
  }

  @Override
  public String toString() {
    return cliName;
  }
}
