package io.infx.matrix.changelog;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.matrix.changelog.internal.Git;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Plans from a git repository, as the reference planner runs in CI: the added entries come from
 * {@code git diff <base>:<changelog> <head>:<changelog>}, the head's master and runner files from
 * the working tree, and the base's (for append-only and retired entries) from the base ref.
 *
 * <p>The JVM cannot change its working directory, so the repository directory is explicit; the
 * command line passes the process's working directory. Relative paths (the changelog file, the
 * layout's config files) are resolved against it, as the reference resolves them against its
 * working directory.
 */
public final class RepositoryPlanner {

  /**
   * Where a revision's generation inputs live, relative to the working directory.
   *
   * @param masterFiles master-config files in catalogue order
   * @param runnerFile the runner file
   */
  public record Layout(List<String> masterFiles, String runnerFile) {
    public Layout {
      masterFiles = List.copyOf(masterFiles);
      Objects.requireNonNull(runnerFile, "runnerFile");
    }

    /** The reference's hard-coded inputs: AMD then NVIDIA masters, {@code configs/runners.yaml}. */
    public static Layout reference() {
      return new Layout(List.of("configs/amd-master.yaml", "configs/nvidia-master.yaml"),
          "configs/runners.yaml");
    }
  }

  /** Bound on each git call. */
  public static final Duration GIT_TIMEOUT = Duration.ofSeconds(120);

  private final ChangelogPlanner planner;
  private final Layout layout;

  private RepositoryPlanner(ChangelogPlanner planner, Layout layout) {
    this.planner = Objects.requireNonNull(planner, "planner");
    this.layout = Objects.requireNonNull(layout, "layout");
  }

  /** The standard planner with the reference layout. */
  public static RepositoryPlanner standard() {
    return new RepositoryPlanner(ChangelogPlanner.standard(), Layout.reference());
  }

  /** A repository planner with its own planner and layout. */
  public static RepositoryPlanner of(ChangelogPlanner planner, Layout layout) {
    return new RepositoryPlanner(planner, layout);
  }

  /**
   * Plans the entries appended to {@code changelogFile} between {@code baseRef} and
   * {@code headRef}.
   *
   * @param workDir the working directory (inside the repository's work tree)
   * @param changelogFile the changelog path, relative to {@code workDir} or absolute
   * @throws InfxException kind {@code git} when git fails or a ref/file is missing, {@code file}
   *     for a missing head input, {@code changelog} for changelog rules, and the matrix kinds for
   *     catalogue errors
   */
  public ChangelogPlan plan(Path workDir, String baseRef, String headRef, String changelogFile,
      ChangelogPlanner.Options options) {
    Git git = new Git(workDir, GIT_TIMEOUT);
    String prefix = git.run("rev-parse", "--show-prefix").out().strip();
    Path top = Path.of(git.run("rev-parse", "--show-toplevel").out().strip());
    String changelogPath = repoPath(top, workDir, prefix, changelogFile);
    verifyRef(git, baseRef);
    verifyRef(git, headRef);
    requireAt(git, baseRef, changelogPath);
    requireAt(git, headRef, changelogPath);
    String diff = git.run("diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames",
        "--diff-algorithm=myers", "--unified=3",
        baseRef + ":" + changelogPath, headRef + ":" + changelogPath).out();
    List<ChangelogEntry> entries =
        ChangelogDiff.fromUnifiedDiff(diff, changelogFile).entries(options.allowRetired());
    Revision head = new Revision(
        layout.masterFiles().stream().map(f -> readWorkTree(workDir, f)).toList(),
        readWorkTree(workDir, layout.runnerFile()));
    Supplier<Revision> base = () -> readRevision(git, baseRef, prefix);
    return planner.plan(entries, baseRef, headRef, head, base, options);
  }

  private static String repoPath(Path top, Path workDir, String prefix, String file) {
    Path p = Path.of(file);
    if (p.isAbsolute()) {
      try {
        Path real = p.getParent().toRealPath().resolve(p.getFileName());
        return top.toRealPath().relativize(real).toString().replace('\\', '/');
      } catch (IOException e) {
        throw new InfxException(ErrorKind.FILE, "cannot resolve " + file + ": " + e.getMessage(), e);
      }
    }
    return Path.of(prefix).resolve(p).normalize().toString().replace('\\', '/');
  }

  private static void verifyRef(Git git, String ref) {
    if (git.call("rev-parse", "--verify", "--quiet", ref + "^{commit}").exitCode() != 0) {
      throw new InfxException(ErrorKind.GIT, "unknown revision '" + ref + "' in " + git.dir()
          + " (not a commit, branch or tag of this repository)");
    }
  }

  private static void requireAt(Git git, String ref, String path) {
    if (git.call("cat-file", "-e", ref + ":" + path).exitCode() != 0) {
      throw new InfxException(ErrorKind.GIT, "Could not find '" + path + "' at '" + ref + "'");
    }
  }

  private Revision readRevision(Git git, String ref, String prefix) {
    List<String> wanted = new ArrayList<>(layout.masterFiles());
    wanted.add(layout.runnerFile());
    List<String> missing = new ArrayList<>();
    List<ConfigText> texts = new ArrayList<>();
    for (String f : wanted) {
      String path = Path.of(prefix).resolve(f).normalize().toString().replace('\\', '/');
      Git.Result r = git.call("cat-file", "blob", ref + ":" + path);
      if (r.exitCode() != 0) {
        missing.add(path);
      } else {
        texts.add(new ConfigText(ref + ":" + path, new String(r.stdout(), StandardCharsets.UTF_8)));
      }
    }
    if (!missing.isEmpty()) {
      throw new InfxException(ChangelogEntries.KIND, "revision '" + ref
          + "' is missing generation inputs: " + missing);
    }
    return new Revision(texts.subList(0, texts.size() - 1), texts.get(texts.size() - 1));
  }

  private static ConfigText readWorkTree(Path workDir, String file) {
    Path p = workDir.resolve(file);
    try {
      return new ConfigText(file, Files.readString(p, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      throw new InfxException(ErrorKind.FILE, "Input file '" + file + "' does not exist.");
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
