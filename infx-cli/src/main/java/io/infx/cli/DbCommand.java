package io.infx.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code infx db}: the results store (an embedded file by default, PostgreSQL with
 * {@code --db jdbc:postgresql://…}): ingest runs, query the latest points, a point's history, the
 * stored runs, and verify.
 */
@Command(
    name = "db",
    mixinStandardHelpOptions = true,
    description = {
        "The results store: ingest run directories and InferenceX artifacts, query the latest "
            + "points and their history, verify.",
        "--db takes a file (default: $INFX_DB, else ./infx-results.mv.db) or jdbc:postgresql://HOST:PORT/DB "
            + "(credentials from INFX_DB_USER/INFX_DB_PASSWORD, else PGUSER/PGPASSWORD)."
    },
    subcommands = {
        CommandLine.HelpCommand.class,
        DbIngestCommand.class,
        DbQueryCommand.class,
        DbHistoryCommand.class,
        DbRunsCommand.class,
        DbVerifyCommand.class,
    })
public final class DbCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "missing subcommand");
  }
}
