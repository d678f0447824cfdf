package com.acme.benchci.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.infx.fleet.RunnerName;
import io.infx.fleet.launch.FleetLauncher;
import io.infx.fleet.launch.LaunchResult;
import io.infx.fleet.spi.FleetAdapters;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.Sweep;
import io.infx.matrix.runners.RunnerInventory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The team's adapter as infx sees it: found through ServiceLoader, chosen for a runner by the
 * {@code adapter:} of its cluster record in {@code config/runners.yaml}, and ending the point
 * {@code submitted} with a ticket in the workspace.
 */
class AcmeQueueAdapterTest {

  @TempDir Path tmp;

  private static final RunnerInventory RUNNERS = RunnerInventory.load(Path.of("config", "runners.yaml"));

  @Test
  void infxFindsTheAdapterThroughServiceLoader() {
    assertTrue(FleetAdapters.load().ids().contains(AcmeQueueAdapter.ID), FleetAdapters.load().ids().toString());
  }

  @Test
  void theClusterRecordRoutesItsRunnersToTheAdapterWhichSubmitsATicket() throws IOException {
    MatrixRow row = Sweep.fromFiles(Path.of("config", "bench-ci.yaml")).runners(RUNNERS)
        .configKeys("acme70b-fp8-h100-vllm").expand().rows().get(0);
    LaunchResult r = FleetLauncher.builder().row(row).runner(RunnerName.of("acme-h100_1")).inventory(RUNNERS)
        .workspace(tmp).launch();

    assertEquals("submitted", r.outcome());
    assertEquals(0, r.exitCode());
    assertTrue(r.endedWithoutResult());
    assertFalse(r.rawFile().isPresent());
    assertEquals("queue gpu-h100: ticket " + AcmeQueueAdapter.TICKET + " for " + r.resultFilename(), r.status().raw());
    List<String> ticket = Files.readAllLines(tmp.resolve(AcmeQueueAdapter.TICKET));
    assertEquals(List.of("queue=gpu-h100", "cluster=acme-h100", "runner=acme-h100_1",
        "result_filename=" + r.resultFilename()), ticket.subList(0, 4));
    assertTrue(ticket.contains("env.ACME_QUEUE=gpu-h100"), ticket.toString());
    assertTrue(ticket.contains("env.RESULT_FILENAME=" + r.resultFilename()), ticket.toString());
    String event = Files.readString(r.jobEvent());
    assertTrue(event.contains("\"adapter\" : \"acme-queue\"") || event.contains("\"adapter\":\"acme-queue\""), event);
    assertTrue(event.contains("cluster:acme-h100 → adapter acme-queue"), event);
  }
}
