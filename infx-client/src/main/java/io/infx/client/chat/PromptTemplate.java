package io.infx.client.chat;

import io.infx.client.ChatMessage;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Wraps one user prompt in a model's chat framing exactly where and how the reference client
 * does it ({@code benchmark_serving.py} {@code _apply_chat_template}): the tokenizer's template
 * on {@code [{"role": "user", "content": prompt}]} with {@code add_generation_prompt=True}, or,
 * with {@code --dsv4}, the DeepSeek-V4 encoder in thinking mode. Thread-safe.
 */
public final class PromptTemplate {

  private final String description;
  private final UnaryOperator<String> wrap;

  private PromptTemplate(String description, UnaryOperator<String> wrap) {
    this.description = description;
    this.wrap = wrap;
  }

  /** {@code tokenizer.apply_chat_template([user prompt], add_generation_prompt=True, tokenize=False)}. */
  public static PromptTemplate chat(ChatTemplate template) {
    Objects.requireNonNull(template, "template");
    return new PromptTemplate(template.origin(),
        p -> template.render(List.of(ChatMessage.user(p)), true));
  }

  /** {@code encoding_dsv4.encode_messages([user prompt], thinking_mode="thinking")}. */
  public static PromptTemplate deepSeekV4() {
    return new PromptTemplate("DeepSeek-V4 encoding (encoding_dsv4, thinking mode)",
        p -> DeepSeekV4Encoding.encodeMessages(List.of(Map.of("role", "user", "content", p)),
            DeepSeekV4Encoding.ThinkingMode.THINKING));
  }

  /**
   * The prompt as sent.
   *
   * @throws ChatTemplateException when the template refuses to render
   */
  public String apply(String userPrompt) {
    return wrap.apply(userPrompt);
  }

  /** Where the framing comes from (a template file, or the DeepSeek-V4 encoder). */
  public String description() {
    return description;
  }
}
