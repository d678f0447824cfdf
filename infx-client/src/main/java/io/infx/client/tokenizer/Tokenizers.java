package io.infx.client.tokenizer;

import static io.infx.core.Wording.setting;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.Wording;
import io.infx.core.io.BoundedHttp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Resolves {@code --tokenizer} without ever downloading: {@code builtin}; a {@code tokenizer.json}
 * file; a directory holding one; or a model id found in the local Hugging Face cache
 * ({@code $HF_HUB_CACHE}, {@code $HF_HOME/hub}, {@code ~/.cache/huggingface/hub}). Without
 * {@code --tokenizer}, the model id is looked up the same way, and when the server is infx's own
 * simulator the built-in tokenizer (which the simulator also uses) is the default.
 */
public final class Tokenizers {

  /** A resolved tokenizer and a note for the user (empty when nothing is worth saying). */
  public record Resolved(Tokenizer tokenizer, String note) {}

  private Tokenizers() {}

  public static Resolved resolve(Optional<String> flag, String model, URI server) {
    if (flag.isPresent()) {
      String v = flag.get();
      if (v.equals("builtin")) {
        return new Resolved(BuiltinTokenizer.instance(), "");
      }
      Optional<Path> file = locate(v);
      if (file.isPresent()) {
        return new Resolved(HfTokenizer.load(file.get(), v), "");
      }
      throw new InfxException(ErrorKind.TOKENIZER, Wording.of(setting("tokenizer"), " " + v
          + ": no tokenizer.json found (looked for a file, a directory holding tokenizer.json, and"
          + " the model in the local Hugging Face cache " + cacheDirs() + "); infx never downloads."
          + " Pass a tokenizer.json path or ", setting("tokenizer"), " builtin."));
    }
    Optional<Path> file = locate(model);
    if (file.isPresent()) {
      return new Resolved(HfTokenizer.load(file.get(), model), "");
    }
    if (isSimulator(server)) {
      return new Resolved(BuiltinTokenizer.instance(),
          "tokenizer: builtin (the server is the infx simulator, which counts tokens with it)");
    }
    throw new InfxException(ErrorKind.TOKENIZER, Wording.of("no local tokenizer for model '" + model
        + "' (looked in the local Hugging Face cache " + cacheDirs() + "); infx never downloads."
        + " Pass ", setting("tokenizer"), " PATH/tokenizer.json, a directory holding one, or ",
        setting("tokenizer"), " builtin."));
  }

  /** A tokenizer.json for a path or a model id, if one exists locally. */
  public static Optional<Path> locate(String v) {
    Path p = Path.of(v);
    if (Files.isRegularFile(p)) {
      return Optional.of(p);
    }
    if (Files.isDirectory(p)) {
      Path t = p.resolve("tokenizer.json");
      if (Files.isRegularFile(t)) {
        return Optional.of(t);
      }
      Optional<Path> snap = fromRepoDir(p);
      if (snap.isPresent()) {
        return snap;
      }
    }
    if (v.contains("/") && !v.startsWith("/") && !v.startsWith(".")) {
      String repo = "models--" + v.replace("/", "--");
      for (Path cache : cacheDirs()) {
        Optional<Path> snap = fromRepoDir(cache.resolve(repo));
        if (snap.isPresent()) {
          return snap;
        }
      }
    }
    return Optional.empty();
  }

  /** {@code models--org--name}: prefer the snapshot {@code refs/main} names, else the newest. */
  private static Optional<Path> fromRepoDir(Path repo) {
    Path snaps = repo.resolve("snapshots");
    if (!Files.isDirectory(snaps)) {
      return Optional.empty();
    }
    try {
      Path ref = repo.resolve("refs/main");
      if (Files.isRegularFile(ref)) {
        Path t = snaps.resolve(Files.readString(ref).trim()).resolve("tokenizer.json");
        if (Files.isRegularFile(t)) {
          return Optional.of(t);
        }
      }
      try (Stream<Path> s = Files.list(snaps)) {
        return s.map(d -> d.resolve("tokenizer.json")).filter(Files::isRegularFile)
            .max(Comparator.comparingLong(f -> f.toFile().lastModified()));
      }
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  static List<Path> cacheDirs() {
    String hub = System.getenv(io.infx.core.launch.LaunchVariable.HF_HUB_CACHE.name());
    String home = System.getenv("HF_HOME");
    Path user = Path.of(System.getProperty("user.home"), ".cache", "huggingface", "hub");
    return Stream.of(hub == null ? null : Path.of(hub),
            home == null ? null : Path.of(home, "hub"), user)
        .filter(p -> p != null).distinct().toList();
  }

  /** Asks {@code /v1/models} whether the server is the infx simulator (2 s and 4 MiB for the answer). */
  static boolean isSimulator(URI server) {
    try {
      HttpClient c = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      HttpRequest r = HttpRequest.newBuilder(server.resolve("/v1/models"))
          .timeout(Duration.ofSeconds(2)).GET().build();
      HttpResponse<byte[]> resp = BoundedHttp.send(c, r, 4 << 20, Duration.ofSeconds(2));
      return resp.statusCode() == 200 && new String(resp.body(), StandardCharsets.UTF_8)
          .contains("\"owned_by\":\"infx-sim\"");
    } catch (IOException | RuntimeException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
