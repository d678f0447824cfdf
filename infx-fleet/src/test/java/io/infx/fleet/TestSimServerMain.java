package io.infx.fleet;

import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;

/** A stand-alone simulator for tests that need a server <em>command</em>: serves on {@code $PORT} until killed. */
public final class TestSimServerMain {

  private TestSimServerMain() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(System.getenv("PORT"));
    try (SimServer sim = SimServer.start(SimConfig.builder().port(port).model(System.getenv("MODEL")).build())) {
      System.out.println("test simulator on port " + sim.port() + " for " + System.getenv("MODEL")
          + " tp=" + System.getenv("TP"));
      System.out.flush();
      sim.awaitShutdown();
    }
  }
}
