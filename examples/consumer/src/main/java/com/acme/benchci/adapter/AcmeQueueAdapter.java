package com.acme.benchci.adapter;

import io.infx.fleet.routing.FleetBinding;
import io.infx.fleet.spi.FleetAdapter;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.PointLaunch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * This team's own fleet adapter: hands each point to the team's job queue instead of running it
 * here. It writes a ticket ({@value #TICKET}: queue, cluster, runner, result file name and the
 * point's launch environment with secrets redacted) into the point's workspace, for the queue's
 * worker to pick up, and reports the point {@code submitted} — infx then neither waits for nor
 * fails on a result file that will appear elsewhere.
 *
 * <p>Registered through {@code META-INF/services/io.infx.fleet.spi.FleetAdapter}; chosen by
 * {@code infx run --adapter auto} because the cluster record of {@code config/runners.yaml} names it
 * ({@code adapter: acme-queue}). The queue comes from the record's {@code env} ({@code ACME_QUEUE},
 * which infx overlays on the launch environment), {@code default} when unset.
 */
public final class AcmeQueueAdapter implements FleetAdapter {

  /** The id {@code runners.yaml} and {@code --adapter} name. */
  public static final String ID = "acme-queue";

  /** The ticket's file name in the point's workspace. */
  public static final String TICKET = "acme-queue-ticket.txt";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String description() {
    return "bench-ci: submits each point to the acme job queue (writes a ticket, does not wait)";
  }

  @Override
  public JobStatus launch(PointLaunch launch) {
    String queue = launch.env().get("ACME_QUEUE").orElse("default");
    String cluster = launch.binding().flatMap(FleetBinding::clusterId).orElse("(none)");
    String resultFilename = launch.env().resultFilename();
    List<String> lines = new ArrayList<>();
    lines.add("queue=" + queue);
    lines.add("cluster=" + cluster);
    lines.add("runner=" + launch.runner().name());
    lines.add("result_filename=" + resultFilename);
    // the whole environment the worker must start the point with; secrets never reach the ticket
    for (Map.Entry<String, String> e : new TreeMap<>(launch.env().redacted()).entrySet()) {
      lines.add("env." + e.getKey() + "=" + e.getValue());
    }
    Path ticket = launch.workspace().resolve(TICKET);
    writeAtomically(ticket, String.join("\n", lines) + "\n");
    launch.log().line(ID, "ticket " + ticket + " on queue " + queue);
    return JobStatus.submitted("queue " + queue + ": ticket " + TICKET + " for " + resultFilename);
  }

  /** A half-written ticket must never be picked up: write beside it, then move it into place. */
  private static void writeAtomically(Path target, String text) {
    try {
      Path tmp = Files.createTempFile(target.getParent(), ".ticket", ".tmp");
      Files.writeString(tmp, text);
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the queue ticket " + target, e);
    }
  }
}
