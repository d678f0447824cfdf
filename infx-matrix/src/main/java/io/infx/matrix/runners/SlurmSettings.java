package io.infx.matrix.runners;

import io.infx.core.InfxStyle;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.infx.core.python.PythonRepr;
import org.immutables.value.Value;

/** The {@code slurm:} record of a {@code scheduler: slurm} cluster: facts every submission shares. */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class SlurmSettings implements SelfChecking {

  public abstract Map<String, HostVolume> volumes();

  /** Default partition; with {@code partitions}, each runner picks one through a partition label. */
  @Size(min = 1, message = "String should have at least 1 character")
  public abstract String partition();

  public abstract List<@Pattern(regexp = "[A-Za-z0-9][A-Za-z0-9_-]*",
      message = "String should match pattern '^[A-Za-z0-9][A-Za-z0-9_-]*$'") String> partitions();

  public abstract Optional<@Size(min = 1, message = "String should have at least 1 character") String> account();

  public abstract boolean exclusive();

  public abstract List<String> exclude();

  /** GRES request template with a {@code {gpus}} placeholder. */
  public abstract Optional<String> gres();

  public abstract Optional<@Positive(message = "Input should be greater than 0") Integer> cpusPerTask();

  public abstract Optional<@Positive(message = "Input should be greater than 0") Integer> cpusPerGpu();

  public abstract List<String> srunArgs();

  public abstract List<String> sallocArgs();

  public abstract Optional<SquashCache> squash();

  public abstract Optional<SrtSlurmSettings> srtSlurm();

  @Override
  public void check(Checks checks) {
    gres().ifPresent(g -> {
      String rendered = g.replace("{gpus}", "1");
      if (rendered.indexOf('{') >= 0 || rendered.indexOf('}') >= 0) {
        checks.fail("V46.gres", "gres", "gres must only use the {gpus} placeholder: '" + g + "'");
      } else if (rendered.equals(g)) {
        checks.fail("V46.gres", "gres", "gres must contain the {gpus} placeholder: '" + g + "'");
      }
    });
    HostPaths.checkLongOptions(srunArgs(), "srun-args", checks);
    HostPaths.checkLongOptions(sallocArgs(), "salloc-args", checks);
    if (srtSlurm().isPresent()) {
      List<String> unknown = new ArrayList<>();
      for (String v : srtSlurm().get().volumeMounts().keySet()) {
        if (!volumes().containsKey(v)) {
          unknown.add(v);
        }
      }
      if (!unknown.isEmpty()) {
        unknown.sort(null);
        checks.fail("V46.volume-mounts", "srt-slurm/volume-mounts",
            "srt-slurm.volume-mounts names unknown volumes: " + PythonRepr.repr(unknown));
      }
    }
    if (cpusPerTask().isPresent() && cpusPerGpu().isPresent()) {
      checks.fail("V46.cpu-request", "set cpus-per-task or cpus-per-gpu, not both");
    }
  }
}
