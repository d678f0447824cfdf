package io.infx.core.secret;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The one rule for keeping secrets out of files and logs: every stored or printed text that can
 * carry server content (failure bodies in raw results, relayed server logs, job events, reports)
 * passes through {@link #redact(String)}.
 *
 * <p>It masks, with {@link #MASK}:
 * <ul>
 *   <li>every known secret value — the API key and the value of every environment variable whose
 *       name looks like a secret ({@link #isSecretName(String)}: contains {@code TOKEN}, {@code KEY},
 *       {@code SECRET} or {@code PASSWORD}, any case) — wherever it appears; values shorter than
 *       {@link #MIN_SECRET_LENGTH} characters are too likely to be ordinary text and are not
 *       matched by value;</li>
 *   <li>the value of anything shaped like an {@code Authorization}/{@code Proxy-Authorization}
 *       header or an {@code api-key}/{@code x-api-key} field ({@code Authorization: Bearer x},
 *       {@code "authorization": "Bearer x"}, {@code authorization=x}), and any {@code Bearer <token>},
 *       even when the secret is not known to this process (a gateway's own key).</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public final class Redactor {

  /** What a secret is replaced with. */
  public static final String MASK = "***";

  /** Secret values shorter than this are not matched by value (see the class comment). */
  public static final int MIN_SECRET_LENGTH = 4;

  private static final Pattern SECRET_NAME = Pattern.compile("(?i).*(TOKEN|KEY|SECRET|PASSWORD).*");

  // header or field name, separator (": ", "=", "\": \""), optional scheme, then the credential
  private static final Pattern HEADER = Pattern.compile(
      "(?i)((?:proxy-)?authorization|x-api-key|api[-_]key)(\\\\?[\"']?\\s*[:=]\\s*\\\\?[\"']?\\s*)"
          + "((?:bearer|basic|token|digest)\\s+)?([^\\s\"'\\\\,;}\\]]+)");
  private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer\\s+)([A-Za-z0-9._~+/=-]{4,})");

  private static final Redactor NONE = new Redactor(List.of());

  private final List<String> secrets; // longest first, so a secret containing another is masked whole

  private Redactor(Collection<String> secrets) {
    List<String> s = new ArrayList<>(new LinkedHashSet<>(secrets));
    s.sort(Comparator.comparingInt(String::length).reversed());
    this.secrets = List.copyOf(s);
  }

  /** A redactor that knows no secret value (it still masks the header shapes). */
  public static Redactor shapesOnly() {
    return NONE;
  }

  /**
   * A redactor for this process: the secret-looking variables of {@link System#getenv()} plus
   * {@code explicitSecrets} (e.g. the API key; null and short values are ignored).
   */
  public static Redactor forProcess(String... explicitSecrets) {
    return fromEnvironment(System.getenv()).with(explicitSecrets);
  }

  /** A redactor knowing the values of the variables of {@code env} whose names look secret. */
  public static Redactor fromEnvironment(Map<String, String> env) {
    List<String> s = new ArrayList<>();
    env.forEach((k, v) -> {
      if (isSecretName(k) && usable(v)) {
        s.add(v);
      }
    });
    return new Redactor(s);
  }

  /** A redactor knowing exactly {@code secretValues} (null and short values are ignored). */
  public static Redactor of(Collection<String> secretValues) {
    List<String> s = new ArrayList<>();
    for (String v : secretValues) {
      if (usable(v)) {
        s.add(v);
      }
    }
    return new Redactor(s);
  }

  /** This redactor plus {@code more} secret values (null and short values are ignored). */
  public Redactor with(String... more) {
    List<String> s = new ArrayList<>(secrets);
    for (String v : more) {
      if (usable(v)) {
        s.add(v);
      }
    }
    return s.size() == secrets.size() ? this : new Redactor(s);
  }

  /** This redactor plus everything {@code other} knows. */
  public Redactor with(Redactor other) {
    return with(other.secrets.toArray(String[]::new));
  }

  /** Whether a variable called {@code name} holds a secret: its name contains TOKEN, KEY, SECRET or PASSWORD. */
  public static boolean isSecretName(@Nullable String name) {
    return name != null && SECRET_NAME.matcher(name).matches();
  }

  /** How many secret values this redactor knows (never the values themselves). */
  public int knownSecrets() {
    return secrets.size();
  }

  /** {@code text} with every secret and credential-shaped value replaced by {@link #MASK}; null stays null. */
  public String redact(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String out = text;
    for (String s : secrets) {
      if (out.contains(s)) {
        out = out.replace(s, MASK);
      }
    }
    out = replaceGroup(HEADER, out, 4);
    out = replaceGroup(BEARER, out, 2);
    return out;
  }

  /** Whether {@link #redact(String)} would change {@code text}. */
  public boolean leaks(String text) {
    return text != null && !Objects.equals(redact(text), text);
  }

  private static String replaceGroup(Pattern p, String text, int group) {
    Matcher m = p.matcher(text);
    StringBuilder sb = null;
    int last = 0;
    while (m.find()) {
      String v = m.group(group);
      if (v == null || v.equals(MASK)) {
        continue;
      }
      if (sb == null) {
        sb = new StringBuilder(text.length());
      }
      sb.append(text, last, m.start(group)).append(MASK);
      last = m.end(group);
    }
    if (sb == null) {
      return text;
    }
    return sb.append(text, last, text.length()).toString();
  }

  private static boolean usable(String v) {
    return v != null && v.length() >= MIN_SECRET_LENGTH && !v.isBlank();
  }
}
