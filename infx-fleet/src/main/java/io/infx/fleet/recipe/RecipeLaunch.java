package io.infx.fleet.recipe;

import io.infx.core.Location;
import io.infx.fleet.bench.ClientSettings;
import io.infx.fleet.bench.ServerSpec;
import java.time.Duration;
import java.util.Map;

/**
 * What a recipe makes of one point: the exact server command ({@code bash -c}; {@code $PORT} is
 * the one shell variable left, the port being chosen at launch), its extra environment, readiness
 * and teardown, the client settings, and the result file the point leaves.
 *
 * @param recipe the recipe's name
 * @param where where the recipe is defined ({@code file:line:column}; a preset's resource)
 * @param server the server to start ({@link ServerSpec.Command})
 * @param startupTimeout how long the server may take to answer its health endpoint
 * @param client how the load generator is driven
 * @param resultFilename {@code RESULT_FILENAME}; the raw result is {@code <it>.json}
 * @param launchEnv the point's projected launch variables the command was rendered with (secrets
 *     shown as {@link io.infx.fleet.LaunchEnv#REDACTED})
 */
public record RecipeLaunch(String recipe, Location where, ServerSpec.Command server, Duration startupTimeout,
    ClientSettings client, String resultFilename, Map<String, String> launchEnv) {

  /** The human-readable form {@code infx recipe show} prints. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    sb.append("recipe:      ").append(recipe).append("  (").append(where).append(")\n");
    sb.append("command:     ").append(server.shellCommand()).append('\n');
    sb.append("             (run by bash -c; $PORT is the port chosen at launch, exported with the env below)\n");
    sb.append("server env:  ");
    if (server.env().isEmpty()) {
      sb.append("(none beyond the launch environment)\n");
    } else {
      sb.append('\n');
      server.env().forEach((k, v) -> sb.append("  ").append(k).append('=').append(v).append('\n'));
    }
    sb.append("readiness:   GET ").append(server.healthPath()).append(" within ")
        .append(startupTimeout.toSeconds()).append(" s while the process lives\n");
    sb.append("teardown:    SIGTERM, SIGKILL after ").append(server.stopTimeout().toSeconds()).append(" s\n");
    sb.append("client:      backend ").append(client.backend())
        .append(client.endpoint().map(e -> ", endpoint " + e).orElse(""))
        .append(client.tokenizer().map(t -> ", tokenizer " + t).orElse(""))
        .append(client.useChatTemplate() ? ", use-chat-template" : "")
        .append(client.extraBody().isEmpty() ? "" : ", extra body " + client.extraBody()).append('\n');
    sb.append("result:      ").append(resultFilename).append(".json (raw), agg_").append(resultFilename)
        .append(".json (aggregate)\n");
    sb.append("launch env:\n");
    launchEnv.forEach((k, v) -> sb.append("  ").append(k).append('=').append(v).append('\n'));
    return sb.toString();
  }
}
