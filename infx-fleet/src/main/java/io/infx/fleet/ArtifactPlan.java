package io.infx.fleet;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.matrix.MatrixRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which files of a job's workspace form which named artifact, and when each is uploaded — the
 * naming contract downstream collectors route on (fleet spec §9). Computed before the launch, so
 * a failed or cancelled job still knows what diagnostics to keep.
 *
 * @param resultFilename the job's {@code RESULT_FILENAME}
 * @param artifacts artifacts that apply to this row, in upload order
 */
public record ArtifactPlan(String resultFilename, List<Artifact> artifacts) {

  public ArtifactPlan {
    Objects.requireNonNull(resultFilename, "resultFilename");
    artifacts = List.copyOf(artifacts);
  }

  /** When an artifact is uploaded. */
  public enum UploadWhen {
    /** Only when the job succeeded (results must never come from a failed job). */
    ON_SUCCESS,
    /** Whatever the outcome (diagnostics); never makes a failed run count as a result. */
    ALWAYS
  }

  /** What a missing file means (as GitHub's {@code if-no-files-found}). */
  public enum IfMissing {
    ERROR,
    WARN,
    IGNORE
  }

  /**
   * One named artifact.
   *
   * @param name artifact name, e.g. {@code bmk_<RF>}
   * @param paths workspace-relative files or globs ({@code *}, {@code **})
   * @param excludes globs left out of {@code paths}
   * @param when upload condition
   * @param ifMissing how to treat a pattern that matches nothing
   */
  public record Artifact(String name, List<String> paths, List<String> excludes, UploadWhen when,
      IfMissing ifMissing) {
    public Artifact {
      Objects.requireNonNull(name, "name");
      paths = List.copyOf(paths);
      excludes = List.copyOf(excludes);
      Objects.requireNonNull(when, "when");
      Objects.requireNonNull(ifMissing, "ifMissing");
    }
  }

  /** The artifact called {@code name}, if planned. */
  public Optional<Artifact> artifact(String name) {
    return artifacts.stream().filter(a -> a.name().equals(name)).findFirst();
  }

  /** Artifact names in plan order. */
  public List<String> names() {
    return artifacts.stream().map(Artifact::name).toList();
  }

  /**
   * The plan for {@code row} under {@code resultFilename}, reproducing the reference templates'
   * upload steps: {@code bmk_}, {@code bmk_agentic_}, {@code agentic_}, {@code eval_},
   * {@code server_logs_} / {@code eval_server_logs_}, {@code multinode_server_logs_},
   * {@code gpu_metrics_} / {@code eval_gpu_metrics_}, {@code power_audit_}, plus the newer
   * {@code job_event_} artifact.
   */
  public static ArtifactPlan of(MatrixRow row, String resultFilename) {
    String rf = resultFilename;
    boolean multi = row.multiNode();
    boolean agentic = row.agentic();
    boolean evalOnly = row.evalOnly();
    boolean runEval = row.runEval() || evalOnly;
    List<Artifact> out = new ArrayList<>();
    if (!agentic && !evalOnly) {
      out.add(new Artifact("bmk_" + rf, List.of(multi ? "agg_" + rf + "_*.json" : "agg_" + rf + ".json"),
          List.of(), UploadWhen.ON_SUCCESS, IfMissing.ERROR));
    }
    if (agentic && !(multi && evalOnly)) {
      out.add(new Artifact("bmk_agentic_" + rf, List.of(multi ? rf + "_conc*.json" : rf + ".json"),
          List.of(), UploadWhen.ALWAYS, IfMissing.WARN));
    }
    if (agentic) {
      out.add(new Artifact("agentic_" + rf, List.of(multi ? "LOGS/agentic/**" : "results/**"),
          List.of("**/aiperf_artifacts/inputs.json", "**/profile_export_raw.jsonl"),
          UploadWhen.ALWAYS, IfMissing.WARN));
    }
    if (runEval) {
      String name = multi ? "eval_" + rf : "eval_" + row.expName() + "_" + rf;
      out.add(new Artifact(name, List.of("meta_env.json", "results*.json", "sample*.jsonl",
          "agent_preds.json", "predictions.jsonl", "swebench_report_*.json", "*.traj*"), List.of(),
          UploadWhen.ALWAYS, evalOnly ? IfMissing.ERROR : IfMissing.WARN));
    }
    String evalPrefix = evalOnly ? "eval_" : "";
    if (multi) {
      out.add(new Artifact("multinode_server_logs_" + rf, List.of("multinode_server_logs.tar.gz"), List.of(),
          UploadWhen.ALWAYS, IfMissing.WARN));
    } else {
      out.add(new Artifact(evalPrefix + "server_logs_" + rf,
          List.of("server.log", "results/*.log", "results/*_config.json"), List.of(), UploadWhen.ALWAYS,
          IfMissing.WARN));
      out.add(new Artifact(evalPrefix + "gpu_metrics_" + rf, List.of("gpu_metrics.csv",
          "gpu_metrics_energy_start.csv", "gpu_metrics_energy_end.csv", "gpu_metrics_identity.json"),
          List.of(), UploadWhen.ALWAYS, IfMissing.IGNORE));
    }
    if (!evalOnly && !agentic) {
      List<String> paths = new ArrayList<>(List.of(
          multi ? rf + "_*.json" : rf + ".json",
          multi ? "agg_" + rf + "_*.json" : "agg_" + rf + ".json",
          "gpu_metrics*.csv", "gpu_metrics_identity.json", "power_validation_" + rf + "*.json"));
      if (multi) {
        paths.add("LOGS/power/**");
        paths.add("LOGS/*/results_*.json");
      }
      out.add(new Artifact("power_audit_" + rf, paths, List.of(), UploadWhen.ALWAYS, IfMissing.IGNORE));
    }
    out.add(new Artifact("job_event_" + rf, List.of("job_event.json"), List.of(), UploadWhen.ALWAYS,
        IfMissing.WARN));
    return new ArtifactPlan(rf, out);
  }

  /** The plan as JSON ({@code artifact_plan.json} in a launch's output directory). */
  public ObjectNode toJson() {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("result_filename", resultFilename);
    ArrayNode arr = root.putArray("artifacts");
    for (Artifact a : artifacts) {
      ObjectNode o = arr.addObject();
      o.put("name", a.name());
      a.paths().forEach(o.putArray("paths")::add);
      if (!a.excludes().isEmpty()) {
        a.excludes().forEach(o.putArray("excludes")::add);
      }
      o.put("when", a.when().name().toLowerCase(java.util.Locale.ROOT));
      o.put("if_missing", a.ifMissing().name().toLowerCase(java.util.Locale.ROOT));
    }
    return root;
  }
}
