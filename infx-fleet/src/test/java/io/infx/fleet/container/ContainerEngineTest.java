package io.infx.fleet.container;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.fleet.spi.JobSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Generated engine command lines (no engine runs on this machine). */
class ContainerEngineTest {

  private final JobSpec spec = JobSpec.builder().name("h100-cr_0").command(List.of("bash", "-c", "vllm serve $MODEL --port $PORT"))
      .workspace(Path.of("/ws")).image("vllm/vllm-openai:v0.27.1").gpus(8)
      .putEnv("MODEL", "m").putEnv("HF_TOKEN", "secret").putEnv("EP_SIZE", "8")
      .putMounts("/mnt/hf_hub_cache", "/root/.cache/huggingface").build();

  @Test
  void dockerRunPassesTheWholeEnvironmentByNameAndNeverAValue() {
    List<String> argv = ContainerEngine.DOCKER.runCommand(spec, ContainerEngine.Gpu.NVIDIA);
    assertThat(String.join(" ", argv)).isEqualTo("docker run --rm --init --network=host --name=h100-cr_0 --ipc=host "
        + "--shm-size=16g --ulimit memlock=-1 --ulimit stack=67108864 --gpus all -v /ws:/workspace "
        + "-v /mnt/hf_hub_cache:/root/.cache/huggingface -w /workspace -e MODEL -e HF_TOKEN -e EP_SIZE "
        + "--entrypoint=/bin/bash vllm/vllm-openai:v0.27.1 -c bash -c 'vllm serve $MODEL --port $PORT'");
    assertThat(argv).noneMatch(a -> a.contains("secret"));
    assertThat(ContainerEngine.DOCKER.removeCommand(spec)).containsExactly("docker", "rm", "-f", "h100-cr_0");
    assertThat(ContainerEngine.DOCKER.prepareCommands(spec, Path.of("/sq"))).isEmpty();
  }

  @Test
  void amdGpusUseDeviceFilesAndPodmanUsesCdi() {
    assertThat(ContainerEngine.DOCKER.runCommand(spec, ContainerEngine.Gpu.AMD))
        .containsSequence("--device=/dev/kfd", "--device=/dev/dri", "--group-add", "video")
        .doesNotContain("--gpus");
    assertThat(ContainerEngine.PODMAN.runCommand(spec, ContainerEngine.Gpu.NVIDIA))
        .startsWith("podman", "run").containsSequence("--device", "nvidia.com/gpu=all");
    JobSpec cpuOnly = JobSpec.builder().from(spec).gpus(0).build();
    assertThat(ContainerEngine.DOCKER.runCommand(cpuOnly, ContainerEngine.Gpu.NVIDIA)).doesNotContain("--gpus");
  }

  @Test
  void enrootImportsASquashFileNamedLikeTheReferenceThenStartsAContainer() {
    JobSpec nv = JobSpec.builder().from(spec).image("nvcr.io#nvidia/sglang:0.5@sha256:ab").build();
    assertThat(ContainerEngine.squashName("nvcr.io#nvidia/sglang:0.5@sha256:ab"))
        .isEqualTo("nvcr.io_nvidia_sglang_0.5_sha256_ab.sqsh");
    assertThat(ContainerEngine.ENROOT.prepareCommands(nv, Path.of("/sq"))).containsExactly(
        List.of("enroot", "import", "-o", "/sq/nvcr.io_nvidia_sglang_0.5_sha256_ab.sqsh",
            "docker://nvcr.io#nvidia/sglang:0.5@sha256:ab"),
        List.of("enroot", "create", "--force", "--name", "h100-cr_0", "/sq/nvcr.io_nvidia_sglang_0.5_sha256_ab.sqsh"));
    assertThat(String.join(" ", ContainerEngine.ENROOT.runCommand(nv, ContainerEngine.Gpu.NVIDIA)))
        .isEqualTo("enroot start --rw --mount /ws:/workspace --mount /mnt/hf_hub_cache:/root/.cache/huggingface "
            + "--env MODEL --env HF_TOKEN --env EP_SIZE h100-cr_0 /bin/bash -c cd /workspace && bash -c "
            + "'vllm serve $MODEL --port $PORT'");
    assertThat(ContainerEngine.ENROOT.removeCommand(nv)).containsExactly("enroot", "remove", "-f", "h100-cr_0");
  }
}
