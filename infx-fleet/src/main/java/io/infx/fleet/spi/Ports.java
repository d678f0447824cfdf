package io.infx.fleet.spi;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Port choices of the reference launchers (fleet spec §6.2), plus an ephemeral one for shared
 * machines and tests.
 */
public final class Ports {

  /** The bench library's default ({@code PORT:-8888}). */
  public static final int DEFAULT = 8888;

  private Ports() {}

  /** A port free on the loopback interface right now (bind 0, read, close). */
  public static int ephemeral() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new InfxException(ErrorKind.PORT, "cannot find a free port: " + e.getMessage(), e);
    }
  }

  /** AMD Slurm fleets where several runners share a host: {@code 40000 + jobId % 10000}. */
  public static int jobDerived(long slurmJobId) {
    return 40_000 + (int) (slurmJobId % 10_000);
  }

  /** mi355x rule: {@code 8888 +} the last character of the runner name when it is a digit. */
  public static int runnerOrdinal(String runnerName) {
    char last = runnerName.isEmpty() ? 'x' : runnerName.charAt(runnerName.length() - 1);
    return Character.isDigit(last) ? DEFAULT + (last - '0') : DEFAULT;
  }
}
