package io.infx.client.chat;

import static io.infx.core.Wording.setting;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.client.ChatMessage;
import io.infx.client.chat.internal.JinjaTemplate;
import io.infx.client.chat.internal.TemplateError;
import io.infx.core.Wording;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A model's Hugging Face chat template, rendered as transformers' {@code apply_chat_template(
 * messages, add_generation_prompt=…, tokenize=False)} renders it: the template sees
 * {@code messages}, {@code tools=None}, {@code documents=None}, {@code add_generation_prompt} and the
 * tokenizer's special tokens ({@code bos_token}, {@code eos_token}, {@code unk_token},
 * {@code pad_token}, …, as strings), plus any extra variables. The Jinja engine is infx's own
 * (package {@code internal}), checked byte for byte against jinja2 — the engine transformers uses —
 * and the {@code @huggingface/jinja} peer on 70 real templates ({@code benchmarks/chat-templates}).
 *
 * <pre>{@code
 * ChatTemplate t = ChatTemplate.load(Path.of("models/Qwen3-0.6B"));
 * String prompt = t.render(List.of(ChatMessage.user("Hello")), true);
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class ChatTemplate {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> SPECIAL_TOKENS = List.of("bos_token", "eos_token",
      "unk_token", "sep_token", "pad_token", "cls_token", "mask_token");

  private final String source;
  private final String origin;
  private final JinjaTemplate template;
  private final Map<String, Object> specialTokens;
  private final Clock clock;

  private ChatTemplate(String source, String origin, JinjaTemplate template,
      Map<String, Object> specialTokens, Clock clock) {
    this.source = source;
    this.origin = origin;
    this.template = template;
    this.specialTokens = specialTokens;
    this.clock = clock;
  }

  /**
   * A template from its Jinja source, with no special tokens (add them with
   * {@link #withSpecialTokens}).
   *
   * @throws ChatTemplateException on a syntax error (message names line and column)
   */
  public static ChatTemplate of(String source) {
    return compile(source, "chat template", Map.of());
  }

  /**
   * Loads the template of a tokenizer: {@code path} is a directory holding
   * {@code chat_template.jinja} (preferred, as transformers prefers it), {@code chat_template.json}
   * or {@code tokenizer_config.json} with a {@code chat_template} (a string, or a list of
   * {@code {name, template}} of which the {@code default} one is used); or one such file, or
   * {@code tokenizer.json} (its directory is searched). Special tokens come from
   * {@code tokenizer_config.json} when present.
   *
   * @throws ChatTemplateException when no template is found, a file is unreadable or malformed,
   *     or the template has a syntax error
   */
  public static ChatTemplate load(Path path) {
    Path dir = Files.isDirectory(path) ? path : path.toAbsolutePath().getParent();
    Path config = dir.resolve("tokenizer_config.json");
    if (Files.isRegularFile(path) && path.getFileName().toString().equals("tokenizer_config.json")) {
      config = path;
    }
    JsonNode cfg = Files.isRegularFile(config) ? readJson(config) : null;
    Map<String, Object> special = cfg == null ? Map.of() : specialTokens(cfg);
    if (Files.isRegularFile(path) && path.getFileName().toString().endsWith(".jinja")) {
      return compile(read(path), path.toString(), special);
    }
    Path jinja = dir.resolve("chat_template.jinja");
    if (Files.isRegularFile(jinja)) {
      return compile(read(jinja), jinja.toString(), special);
    }
    Path processor = dir.resolve("chat_template.json");
    if (Files.isRegularFile(processor)) {
      JsonNode t = readJson(processor).get("chat_template");
      if (t != null && t.isTextual()) {
        return compile(t.textValue(), processor.toString(), special);
      }
    }
    if (cfg != null && cfg.hasNonNull("chat_template")) {
      return compile(pick(cfg.get("chat_template"), config), config + " (chat_template)", special);
    }
    throw new ChatTemplateException(Wording.of("no chat template in " + dir + ": looked for"
        + " chat_template.jinja, chat_template.json and a chat_template in tokenizer_config.json"
        + " (pass ", setting("chatTemplate"), " FILE to give one)"));
  }

  private static String pick(JsonNode t, Path config) {
    if (t.isTextual()) {
      return t.textValue();
    }
    if (t.isArray()) {
      List<String> names = new ArrayList<>();
      for (JsonNode e : t) {
        String name = e.path("name").asText();
        names.add(name);
        if (name.equals("default") && e.path("template").isTextual()) {
          return e.get("template").textValue();
        }
      }
      throw new ChatTemplateException(config + ": chat_template has named templates " + names
          + " but no 'default' (transformers refuses this too without a template name)");
    }
    throw new ChatTemplateException(config + ": chat_template must be a string or a list of"
        + " {name, template}");
  }

  private static Map<String, Object> specialTokens(JsonNode cfg) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String k : SPECIAL_TOKENS) {
      tokenText(cfg.get(k)).ifPresent(v -> out.put(k, v));
    }
    JsonNode extra = cfg.get("additional_special_tokens");
    if (extra != null && extra.isArray()) {
      List<Object> l = new ArrayList<>();
      extra.forEach(e -> tokenText(e).ifPresent(l::add));
      out.put("additional_special_tokens", l);
    }
    return out;
  }

  /** A token given as a string or as an AddedToken object ({@code {"content": …}}). */
  private static Optional<String> tokenText(JsonNode n) {
    if (n == null || n.isNull()) {
      return Optional.empty();
    }
    if (n.isTextual()) {
      return Optional.of(n.textValue());
    }
    JsonNode c = n.get("content");
    return c != null && c.isTextual() ? Optional.of(c.textValue()) : Optional.empty();
  }

  private static ChatTemplate compile(String source, String origin, Map<String, Object> special) {
    try {
      return new ChatTemplate(source, origin, JinjaTemplate.compile(source), special,
          Clock.systemDefaultZone());
    } catch (TemplateError e) {
      throw new ChatTemplateException(origin + ": " + e.getMessage(), e);
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new ChatTemplateException("cannot read " + p + ": " + e.getMessage(), e);
    }
  }

  private static JsonNode readJson(Path p) {
    try {
      return JSON.readTree(p.toFile());
    } catch (IOException e) {
      throw new ChatTemplateException(p + " is not valid JSON: " + e.getMessage(), e);
    }
  }

  /** The same template with these special tokens ({@code bos_token} → {@code "<s>"}, …). */
  public ChatTemplate withSpecialTokens(Map<String, ?> tokens) {
    return new ChatTemplate(source, origin, template, Map.copyOf(tokens), clock);
  }

  /** The same template reading {@code strftime_now} from {@code clock} (tests, reproducible runs). */
  public ChatTemplate withClock(Clock clock) {
    return new ChatTemplate(source, origin, template, specialTokens, Objects.requireNonNull(clock));
  }

  /** The Jinja source. */
  public String source() {
    return source;
  }

  /** Where the template came from (a file, or "chat template"). */
  public String origin() {
    return origin;
  }

  /** The special tokens passed to the template. */
  public Map<String, Object> specialTokens() {
    return specialTokens;
  }

  /**
   * Renders a conversation of role/content messages.
   *
   * @throws ChatTemplateException when the template raises (e.g. a role it does not support)
   */
  public String render(List<ChatMessage> messages, boolean addGenerationPrompt) {
    List<Map<String, Object>> ms = new ArrayList<>();
    for (ChatMessage m : messages) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("role", m.role());
      e.put("content", m.content());
      ms.add(e);
    }
    return render(ms, addGenerationPrompt, Map.of());
  }

  /**
   * Renders messages given as maps (any JSON-like content: strings, numbers, lists, maps),
   * with extra template variables (e.g. {@code enable_thinking}); extra variables override the
   * defaults, as {@code apply_chat_template(**kwargs)} does.
   *
   * @throws ChatTemplateException when the template raises or misuses a value
   */
  public String render(List<? extends Map<String, ?>> messages, boolean addGenerationPrompt,
      Map<String, ?> extraVars) {
    Map<String, Object> ctx = new LinkedHashMap<>(specialTokens);
    ctx.put("messages", messages);
    ctx.put("tools", null);
    ctx.put("documents", null);
    ctx.put("add_generation_prompt", addGenerationPrompt);
    ctx.putAll(extraVars);
    try {
      return template.render(ctx, clock);
    } catch (TemplateError e) {
      throw new ChatTemplateException(origin + ": " + e.getMessage(), e);
    }
  }
}
