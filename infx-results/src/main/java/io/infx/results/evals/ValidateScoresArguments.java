package io.infx.results.evals;

import io.infx.core.python.PythonNumbers;
import io.infx.core.python.PythonRepr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The options of {@code validate_scores.py}, parsed as its Python 3.11 {@code argparse} parser
 * does: {@code --opt value} and {@code --opt=value}, unambiguous prefixes ({@code --results-g}),
 * negative numbers and strings with spaces taken as values, last occurrence wins, and the
 * parser's error texts ({@code argument --min-score: invalid float value: 'abc'},
 * {@code expected one argument}, {@code ambiguous option: …}, {@code unrecognized arguments: …}).
 */
public final class ValidateScoresArguments {

  /** The program name argparse prints. */
  public static final String PROG = "validate_scores.py";

  /** argparse's usage text (80 columns), printed before an error. */
  public static final String USAGE = ""
      + "usage: validate_scores.py [-h] [--min-score MIN_SCORE]\n"
      + "                          [--thresholds THRESHOLDS] [--meta-env META_ENV]\n"
      + "                          [--model-prefix MODEL_PREFIX]\n"
      + "                          [--metric-prefix METRIC_PREFIX]\n"
      + "                          [--results-glob RESULTS_GLOB]\n"
      + "                          [--expected-concs EXPECTED_CONCS]\n";

  /** argparse's help text. */
  public static final String HELP = USAGE + "\n"
      + "Validate eval scores\n\n"
      + "options:\n"
      + "  -h, --help            show this help message and exit\n"
      + "  --min-score MIN_SCORE\n"
      + "                        Fallback minimum score when no threshold config\n"
      + "                        matches (default: 0.85)\n"
      + "  --thresholds THRESHOLDS\n"
      + "                        Path to thresholds config, YAML or JSON (default:\n"
      + "                        utils/evals/thresholds.yaml)\n"
      + "  --meta-env META_ENV   Path to meta_env.json used to detect the model prefix\n"
      + "                        (default: meta_env.json)\n"
      + "  --model-prefix MODEL_PREFIX\n"
      + "                        Override the detected model prefix (default: read from\n"
      + "                        meta_env.json / $MODEL_PREFIX)\n"
      + "  --metric-prefix METRIC_PREFIX\n"
      + "                        Only check metrics whose name starts with this prefix\n"
      + "                        (default: 'exact_match,')\n"
      + "  --results-glob RESULTS_GLOB\n"
      + "                        Glob pattern for result files (default:\n"
      + "                        'results*.json')\n"
      + "  --expected-concs EXPECTED_CONCS\n"
      + "                        Space-separated concurrencies requested by the\n"
      + "                        workflow\n";

  private static final List<String> OPTIONS = List.of("-h", "--help", "--min-score", "--thresholds",
      "--meta-env", "--model-prefix", "--metric-prefix", "--results-glob", "--expected-concs");

  private static final Pattern NEGATIVE_NUMBER = Pattern.compile("^-\\d+$|^-\\d*\\.\\d+$");

  /**
   * The parse result: values (defaults applied), or a help request, or an error text (to print
   * after {@link #USAGE} as {@code validate_scores.py: error: <text>}, exit status 2).
   */
  public record Parsed(boolean help, Optional<String> error, double minScore, Optional<String> thresholds,
      String metaEnv, Optional<String> modelPrefix, String metricPrefix, String resultsGlob,
      Optional<String> expectedConcs) {

    /**
     * The options for {@link ScoreValidator}, run in {@code cwd} with the given environment
     * ({@code MODEL_PREFIX}); the default thresholds file is {@code defaultThresholds}.
     */
    public ValidationOptions toOptions(java.nio.file.Path cwd, java.nio.file.Path defaultThresholds,
        Map<String, String> env) {
      return ValidationOptions.builder()
          .workingDir(cwd)
          .minScore(minScore)
          .thresholds(thresholds)
          .defaultThresholds(defaultThresholds)
          .metaEnv(metaEnv)
          .modelPrefix(modelPrefix)
          .environmentModelPrefix(Optional.ofNullable(env.get(io.infx.core.launch.LaunchVariable.MODEL_PREFIX.name())))
          .metricPrefix(metricPrefix)
          .resultsGlob(resultsGlob)
          .expectedConcs(expectedConcs)
          .build();
    }
  }

  private ValidateScoresArguments() {}

  private record Classified(String option, String explicit) {}

  /** Parses {@code argv} (the arguments after the script name). */
  public static Parsed parse(List<String> argv) {
    // 1. classify every argument (argparse reports ambiguous options before anything else)
    List<Classified> classes = new ArrayList<>();
    boolean afterDashes = false;
    for (String arg : argv) {
      if (afterDashes) {
        classes.add(null);
        continue;
      }
      if (arg.equals("--")) {
        afterDashes = true;
        classes.add(new Classified("--", null));
        continue;
      }
      Classified c;
      try {
        c = classify(arg);
      } catch (IllegalArgumentException e) {
        return error(e.getMessage());
      }
      classes.add(c);
    }
    // 2. consume left to right
    Map<String, String> values = new LinkedHashMap<>();
    double minScore = 0.85;
    List<String> extras = new ArrayList<>();
    for (int i = 0; i < argv.size(); i++) {
      Classified c = classes.get(i);
      if (c == null) {
        extras.add(argv.get(i));
        continue;
      }
      if (c.option().equals("--")) {
        continue;
      }
      if (c.option().isEmpty()) { // an unknown option
        extras.add(argv.get(i));
        continue;
      }
      String opt = c.option();
      if (opt.equals("-h") || opt.equals("--help")) {
        if (c.explicit() != null) {
          return error("argument -h/--help: ignored explicit argument " + PythonRepr.repr(c.explicit()));
        }
        return new Parsed(true, Optional.empty(), 0, Optional.empty(), "", Optional.empty(), "", "",
            Optional.empty());
      }
      String value = c.explicit();
      if (value == null) {
        if (i + 1 >= argv.size() || classes.get(i + 1) != null) {
          return error("argument " + opt + ": expected one argument");
        }
        value = argv.get(++i);
      }
      if (opt.equals("--min-score")) {
        var f = PythonNumbers.parseFloat(value);
        if (!f.ok()) {
          return error("argument --min-score: invalid float value: " + PythonRepr.repr(value));
        }
        minScore = f.value().get();
      }
      values.put(opt, value);
    }
    if (!extras.isEmpty()) {
      return error("unrecognized arguments: " + String.join(" ", extras));
    }
    return new Parsed(false, Optional.empty(), minScore, Optional.ofNullable(values.get("--thresholds")),
        values.getOrDefault("--meta-env", "meta_env.json"), Optional.ofNullable(values.get("--model-prefix")),
        values.getOrDefault("--metric-prefix", "exact_match,"),
        values.getOrDefault("--results-glob", "results*.json"),
        Optional.ofNullable(values.get("--expected-concs")));
  }

  private static Parsed error(String message) {
    return new Parsed(false, Optional.of(message), 0, Optional.empty(), "", Optional.empty(), "", "",
        Optional.empty());
  }

  /**
   * argparse's {@code _parse_optional}: null for a value ('A'), a {@link Classified} with the
   * option (empty for an unknown option) otherwise.
   */
  private static Classified classify(String arg) {
    if (arg.isEmpty() || arg.charAt(0) != '-') {
      return null;
    }
    if (OPTIONS.contains(arg)) {
      return new Classified(arg, null);
    }
    if (arg.length() == 1) {
      return null;
    }
    if (arg.contains("=")) {
      String name = arg.substring(0, arg.indexOf('='));
      if (OPTIONS.contains(name)) {
        return new Classified(name, arg.substring(arg.indexOf('=') + 1));
      }
    }
    List<Classified> matches = new ArrayList<>();
    if (arg.startsWith("--")) {
      String prefix = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
      String explicit = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : null;
      for (String o : OPTIONS) {
        if (o.startsWith(prefix)) {
          matches.add(new Classified(o, explicit));
        }
      }
    } else {
      String shortPrefix = arg.substring(0, 2);
      String shortExplicit = arg.substring(2);
      for (String o : OPTIONS) {
        if (o.equals(shortPrefix)) {
          matches.add(new Classified(o, shortExplicit));
        } else if (o.startsWith(arg)) {
          matches.add(new Classified(o, null));
        }
      }
    }
    if (matches.size() > 1) {
      throw new IllegalArgumentException("ambiguous option: " + (arg.contains("=")
          ? arg.substring(0, arg.indexOf('=')) : arg) + " could match "
          + String.join(", ", matches.stream().map(Classified::option).toList()));
    }
    if (matches.size() == 1) {
      return matches.get(0);
    }
    if (NEGATIVE_NUMBER.matcher(arg).matches()) {
      return null;
    }
    if (arg.contains(" ")) {
      return null;
    }
    return new Classified("", null);
  }
}
